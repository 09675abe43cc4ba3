// What one `redline` command costs the machine: wall and CPU time (user + system, the kernel's
// accounting of the finished child) per call of `redline review list` and `redline review reject`
// against the running app, for this binary and, with --vs-bin, a baseline one (an older build).
import { execFileSync, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Seconds from bash's `times` line for children: "0m0.004s 0m0.002s". */
function seconds(s) {
  const m = /(\d+)m([\d.]+)s/.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

/** One call of `bin args…` under bash, which reports its child's CPU time; stdout dropped. */
function timed(bin, args, env) {
  const t0 = performance.now();
  const res = spawnSync('bash', ['-c', '"$@" >/dev/null 2>&1; times', 'timed', bin, ...args], { env, encoding: 'utf8' });
  const wall = performance.now() - t0;
  // `times` prints the shell's own line, then its children's.
  const [user, sys] = res.stdout.trim().split('\n').at(-1).split(/\s+/).map(seconds);
  return { wall, cpu: (user + sys) * 1000 };
}

/**
 * `runs` calls of each command, alternating the binaries call by call (so a drift in the
 * machine's speed touches both). `propose(bin)` queues a review and returns its id: each reject
 * answers a real one.
 */
export function measureCalls({ bins, env, runs, propose }) {
  const results = {};
  for (const { name } of bins) results[name] = { list: [], reject: [] };
  for (let i = 0; i < runs; i++) {
    for (const { name, path } of bins) {
      results[name].list.push(timed(path, ['review', 'list'], env));
      const id = propose();
      results[name].reject.push(timed(path, ['review', 'reject', String(id)], env));
    }
  }
  return results;
}

/** `redline propose FILE -` with `text`, answered at once with the review's id. */
export function proposer(bin, env, file) {
  let n = 0;
  return () => {
    const out = execFileSync(bin, ['propose', file, '-', '--json'], { env, input: `// call ${++n}\n`, encoding: 'utf8' });
    return JSON.parse(out).id;
  };
}
