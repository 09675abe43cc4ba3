//! The comparison's markdown report: the figures of each target side by side, and the verdict.

use super::rounds::Target;
use super::Args;
use crate::machine::ticks_per_sec;
use crate::report_text::{compare, percentile, thousands};
use std::fmt::Write as _;

const TARGET_P50_MS: f64 = 0.25;
const TARGET_RATIO: f64 = 3.0;

struct Summary {
    p50_ms: f64,
    p99_ms: f64,
    mean_ms: f64,
    max_ms: f64,
    samples: usize,
    tput: f64,
    tput_all: Vec<f64>,
    cpu_us_per_call_lat: f64,
    cpu_us_per_call_tput: f64,
}

fn summarize(t: &Target) -> Summary {
    let mut v = t.latencies_ns.clone();
    v.sort_unstable();
    let ms = |ns: u64| ns as f64 / 1e6;
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64 / 1e6;
    let mut tput_all: Vec<f64> = t
        .tput_rounds
        .iter()
        .map(|r| r.calls as f64 / r.elapsed.as_secs_f64())
        .collect();
    let tput_sorted = {
        let mut s = tput_all.clone();
        s.sort_by(|a, b| a.partial_cmp(b).unwrap());
        s
    };
    let tput = tput_sorted[tput_sorted.len() / 2];
    let tput_calls: u64 = t.tput_rounds.iter().map(|r| r.calls).sum();
    let tput_ticks: u64 = t.tput_rounds.iter().map(|r| r.server_ticks).sum();
    let us = |ticks: u64, calls: u64| {
        if calls == 0 {
            f64::NAN
        } else {
            ticks as f64 / ticks_per_sec() * 1e6 / calls as f64
        }
    };
    tput_all.iter_mut().for_each(|x| *x = x.round());
    Summary {
        p50_ms: ms(percentile(&v, 50.0)),
        p99_ms: ms(percentile(&v, 99.0)),
        mean_ms: mean,
        max_ms: ms(*v.last().unwrap()),
        samples: v.len(),
        tput,
        tput_all,
        cpu_us_per_call_lat: us(t.latency_cpu.ticks, t.latency_cpu.calls),
        cpu_us_per_call_tput: us(tput_ticks, tput_calls),
    }
}

/// The whole report: how it was measured, the figures side by side, each target, the verdict.
pub fn report(targets: &[Target], opts: &Args, context_lines: &[String]) -> String {
    let sums: Vec<Summary> = targets.iter().map(summarize).collect();
    let mut r = String::new();
    method(&mut r, opts, context_lines);
    let table = Table {
        sums: &sums,
        pair: targets.len() == 2,
    };
    table.head(&mut r, targets);
    table.figures(&mut r, opts);
    per_round(&mut r, targets, &sums);
    details(&mut r, targets, &sums, opts);
    verdict(&mut r, targets, &sums);
    r
}

/// The heading and how the figures were measured.
fn method(r: &mut String, opts: &Args, context_lines: &[String]) {
    let _ = writeln!(r, "## openDiff over MCP Streamable HTTP, loopback\n");
    for l in context_lines {
        let _ = writeln!(r, "- {l}");
    }
    let _ = writeln!(
        r,
        "- latency: {} sequential `tools/call openDiff` on one keep-alive connection per round after {} warm-up calls, {} round(s) pooled; time from writing the request to the end of the HTTP response",
        opts.latency_calls, opts.warmup_calls, opts.rounds
    );
    let _ = writeln!(
        r,
        "- throughput: {} connections, one session each, back-to-back `tools/call openDiff` for {:.1} s after {:.1} s warm-up; median of {} round(s)",
        opts.concurrency,
        opts.duration.as_secs_f64(),
        opts.tput_warmup.as_secs_f64(),
        opts.rounds
    );
    let _ = writeln!(r);
}

/// The figures' table: a column per target, and a ratio column when there are two.
struct Table<'a> {
    sums: &'a [Summary],
    pair: bool,
}

impl Table<'_> {
    /// The header row, its separator, and the response framing row.
    fn head(&self, r: &mut String, targets: &[Target]) {
        let mut head = "| |".to_string();
        let mut sep = "|---|".to_string();
        for t in targets {
            let _ = write!(head, " {} |", t.label);
            sep.push_str("---:|");
        }
        if self.pair {
            head.push_str(" ratio |");
            sep.push_str("---:|");
        }
        let _ = writeln!(r, "{head}\n{sep}");
        let _ = write!(r, "| response framing |");
        for t in targets {
            let _ = write!(r, " {} |", t.framing);
        }
        r.push_str(if self.pair { " |\n" } else { "\n" });
    }

    /// One row: the figure `f` of each target shown with `fmt`, and `ratio` of the first two.
    fn row(
        &self,
        r: &mut String,
        name: &str,
        f: &dyn Fn(&Summary) -> f64,
        fmt: &dyn Fn(f64) -> String,
        ratio: Option<&dyn Fn(f64, f64) -> String>,
    ) {
        let _ = write!(r, "| {name} |");
        for s in self.sums {
            let _ = write!(r, " {} |", fmt(f(s)));
        }
        if self.pair {
            match ratio {
                Some(rf) => {
                    let _ = write!(r, " {} |", rf(f(&self.sums[0]), f(&self.sums[1])));
                }
                None => r.push_str(" |"),
            }
        }
        r.push('\n');
    }

    /// The latency, throughput and CPU rows.
    fn figures(&self, r: &mut String, opts: &Args) {
        let ms = |x: f64| format!("{x:.3} ms");
        let faster = |a: f64, b: f64| compare(b / a, "faster", "slower");
        let more = |a: f64, b: f64| {
            let x = a / b;
            if x.is_finite() {
                format!("{x:.1}×")
            } else {
                "n/a".into()
            }
        };
        let less_cpu = |a: f64, b: f64| compare(b / a, "less", "more");
        let us = |x: f64| format!("{x:.0} µs");
        self.row(r, "openDiff p50", &|s| s.p50_ms, &ms, Some(&faster));
        self.row(r, "openDiff p99", &|s| s.p99_ms, &ms, Some(&faster));
        self.row(r, "openDiff mean", &|s| s.mean_ms, &ms, Some(&faster));
        self.row(r, "openDiff max", &|s| s.max_ms, &ms, None);
        self.row(
            r,
            "latency samples",
            &|s| s.samples as f64,
            &thousands,
            None,
        );
        self.row(
            r,
            &format!("tools/call throughput (C={})", opts.concurrency),
            &|s| s.tput,
            &|x| format!("{} calls/s", thousands(x)),
            Some(&more),
        );
        let (lat, tput) = (
            "server CPU per call, latency run",
            "server CPU per call, throughput run",
        );
        self.row(r, lat, &|s| s.cpu_us_per_call_lat, &us, Some(&less_cpu));
        self.row(r, tput, &|s| s.cpu_us_per_call_tput, &us, Some(&less_cpu));
    }
}

/// Each target's throughput in every round.
fn per_round(r: &mut String, targets: &[Target], sums: &[Summary]) {
    let _ = write!(r, "\nthroughput per round:");
    for (t, s) in targets.iter().zip(sums) {
        let all: Vec<String> = s.tput_all.iter().map(|x| thousands(*x)).collect();
        let _ = write!(r, " {} [{}];", t.label, all.join(", "));
    }
    r.pop();
    r.push('\n');
    let _ = writeln!(r);
}

/// What each target is, and whether its latency rounds were cut short.
fn details(r: &mut String, targets: &[Target], sums: &[Summary], opts: &Args) {
    for (t, s) in targets.iter().zip(sums) {
        let _ = writeln!(r, "- {}: {}", t.label, t.detail);
        if t.latency_cut_short {
            let _ = writeln!(
                r,
                "- {}: latency rounds cut short by --latency-max-secs ({} s): {} samples",
                t.label,
                opts.latency_max.as_secs_f64(),
                s.samples
            );
        }
    }
    let _ = writeln!(r);
}

/// Redline's figures against the targets, and the hint a p50 near 40 ms calls for.
fn verdict(r: &mut String, targets: &[Target], sums: &[Summary]) {
    let red = targets.iter().position(|t| t.label == "Redline");
    let refi = targets.iter().position(|t| t.label != "Redline");
    if let (Some(a), Some(b)) = (red, refi) {
        let p50 = sums[a].p50_ms;
        let ratio = sums[a].tput / sums[b].tput;
        let ok1 = p50 < TARGET_P50_MS;
        let ok2 = ratio >= TARGET_RATIO;
        let _ = writeln!(
            r,
            "**Verdict: {}** — p50 {:.3} ms {} {TARGET_P50_MS} ms ({}); throughput {:.1}× the reference {} {TARGET_RATIO}× ({}).",
            if ok1 && ok2 { "targets met" } else { "targets NOT met" },
            p50,
            if ok1 { "<" } else { "≥" },
            if ok1 { "pass" } else { "FAIL" },
            ratio,
            if ok2 { "≥" } else { "<" },
            if ok2 { "pass" } else { "FAIL" },
        );
    }
    if let Some(a) = red {
        let p50 = sums[a].p50_ms;
        if (35.0..=50.0).contains(&p50) {
            let _ = writeln!(
                r,
                "\nHint: a p50 near 40 ms is the signature of Nagle's algorithm meeting the client's delayed ACK: the server sends the response head and its body in separate writes without TCP_NODELAY on the accepted socket (axum 0.8: `listener.tap_io(|s| s.set_nodelay(true))`)."
            );
        }
    }
    match (red, refi) {
        (Some(_), Some(_)) => {}
        (Some(a), None) => {
            let p50 = sums[a].p50_ms;
            let _ = writeln!(
                r,
                "**Verdict: partial** — p50 {:.3} ms ({} the {TARGET_P50_MS} ms target); no reference measured, so no throughput ratio.",
                p50,
                if p50 < TARGET_P50_MS { "within" } else { "OVER" }
            );
        }
        _ => {
            let _ = writeln!(r, "**Verdict: none** — Redline was not measured.");
        }
    }
}
