// Picks the syntax highlighting for a file from its name, loading each language only when first needed.
import { StreamLanguage, type StreamParser } from '@codemirror/language';
import type { Extension } from '@codemirror/state';

export type LanguageId =
  | 'rust' | 'typescript' | 'tsx' | 'javascript' | 'jsx' | 'python' | 'go' | 'java' | 'c' | 'cpp'
  | 'json' | 'markdown' | 'toml' | 'yaml' | 'html' | 'css' | 'shell' | 'dockerfile' | 'ini';

export const languageNames: Record<LanguageId, string> = {
  rust: 'Rust', typescript: 'TypeScript', tsx: 'TypeScript JSX', javascript: 'JavaScript',
  jsx: 'JavaScript JSX', python: 'Python', go: 'Go', java: 'Java', c: 'C', cpp: 'C++',
  json: 'JSON', markdown: 'Markdown', toml: 'TOML', yaml: 'YAML', html: 'HTML', css: 'CSS',
  shell: 'Shell', dockerfile: 'Dockerfile', ini: 'INI',
};

const byExtension: Record<string, LanguageId> = {
  rs: 'rust',
  ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx',
  py: 'python', pyi: 'python', pyw: 'python',
  go: 'go',
  java: 'java',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', 'c++': 'cpp', hh: 'cpp', hpp: 'cpp', hxx: 'cpp', ipp: 'cpp', inl: 'cpp',
  json: 'json', jsonc: 'json', json5: 'json', webmanifest: 'json',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  toml: 'toml',
  yaml: 'yaml', yml: 'yaml',
  html: 'html', htm: 'html', xhtml: 'html',
  css: 'css',
  sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell', command: 'shell',
  dockerfile: 'dockerfile',
  ini: 'ini', cfg: 'ini', conf: 'ini', properties: 'ini', editorconfig: 'ini',
};

// Names that carry no (useful) extension.
const byFileName: Record<string, LanguageId> = {
  'cargo.lock': 'toml', 'poetry.lock': 'toml', 'pipfile': 'toml',
  'dockerfile': 'dockerfile', 'containerfile': 'dockerfile',
  '.bashrc': 'shell', '.bash_profile': 'shell', '.profile': 'shell', '.zshrc': 'shell',
  '.zprofile': 'shell', '.envrc': 'shell', 'pkgbuild': 'shell',
  '.gitconfig': 'ini', '.editorconfig': 'ini', '.npmrc': 'ini',
  'tsconfig.json': 'json', '.prettierrc': 'json', '.eslintrc': 'json',
};

const byInterpreter: Record<string, LanguageId> = {
  sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell', dash: 'shell',
  python: 'python', python3: 'python', node: 'javascript', deno: 'typescript', 'ts-node': 'typescript',
};

/** The file's language from its name, else from a `#!` line; null when unknown (plain text). */
export function languageFor(path: string, firstLine = ''): LanguageId | null {
  const name = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  const known = byFileName[name];
  if (known) return known;
  if (name.startsWith('dockerfile.') || name.endsWith('.dockerfile')) return 'dockerfile';
  const dot = name.lastIndexOf('.');
  if (dot >= 0) {
    const ext = byExtension[name.slice(dot + 1)];
    if (ext) return ext;
  }
  const shebang = /^#!\s*(\S+)(?:\s+(?:-\S+\s+)*(\S+))?/.exec(firstLine);
  if (shebang) {
    const prog = (shebang[1].endsWith('/env') ? shebang[2] ?? '' : shebang[1]).split('/').pop() ?? '';
    return byInterpreter[prog.replace(/[\d.]+$/, '')] ?? byInterpreter[prog] ?? null;
  }
  return null;
}

async function stream(load: () => Promise<StreamParser<unknown>>): Promise<Extension> {
  return StreamLanguage.define(await load());
}

// Dynamic imports keep each grammar in its own chunk, out of the first paint.
const loaders: Record<LanguageId, () => Promise<Extension>> = {
  rust: () => import('@codemirror/lang-rust').then((m) => m.rust()),
  typescript: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: true })),
  tsx: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: true, jsx: true })),
  javascript: () => import('@codemirror/lang-javascript').then((m) => m.javascript()),
  jsx: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ jsx: true })),
  python: () => import('@codemirror/lang-python').then((m) => m.python()),
  go: () => import('@codemirror/lang-go').then((m) => m.go()),
  java: () => import('@codemirror/lang-java').then((m) => m.java()),
  c: () => import('@codemirror/lang-cpp').then((m) => m.cpp()),
  cpp: () => import('@codemirror/lang-cpp').then((m) => m.cpp()),
  json: () => import('@codemirror/lang-json').then((m) => m.json()),
  markdown: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
  toml: () => stream(() => import('@codemirror/legacy-modes/mode/toml').then((m) => m.toml)),
  yaml: () => import('@codemirror/lang-yaml').then((m) => m.yaml()),
  html: () => import('@codemirror/lang-html').then((m) => m.html()),
  css: () => import('@codemirror/lang-css').then((m) => m.css()),
  shell: () => stream(() => import('@codemirror/legacy-modes/mode/shell').then((m) => m.shell)),
  dockerfile: () => stream(() => import('@codemirror/legacy-modes/mode/dockerfile').then((m) => m.dockerFile)),
  ini: () => stream(() => import('@codemirror/legacy-modes/mode/properties').then((m) => m.properties)),
};

const loading = new Map<LanguageId, Promise<Extension>>();
const ready = new Map<LanguageId, Extension>();

/** The language if it has loaded already, so a new review editor can start highlighted. */
export function languageIfLoaded(id: LanguageId): Extension | undefined {
  return ready.get(id);
}

/** The CodeMirror extension for a language; one load per language for the page's lifetime. */
export function loadLanguage(id: LanguageId): Promise<Extension> {
  let ext = loading.get(id);
  if (!ext) {
    ext = loaders[id]().then((loaded) => {
      ready.set(id, loaded);
      return loaded;
    });
    // A failed chunk load should be retried next time rather than cached.
    ext.catch(() => loading.delete(id));
    loading.set(id, ext);
  }
  return ext;
}
