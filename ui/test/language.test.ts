import { language } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { describe, expect, test } from 'vitest';
import { languageFor, languageIfLoaded, languageNames, loadLanguage, type LanguageId } from '../src/language';

describe('languageFor', () => {
  test.each<[string, LanguageId]>([
    ['src/main.rs', 'rust'],
    ['ui/src/app.ts', 'typescript'],
    ['lib/types.d.mts', 'typescript'],
    ['view/App.tsx', 'tsx'],
    ['index.js', 'javascript'],
    ['vite.config.mjs', 'javascript'],
    ['widget.jsx', 'jsx'],
    ['tools/gen.py', 'python'],
    ['cmd/server/main.go', 'go'],
    ['src/main/java/App.java', 'java'],
    ['src/queue.c', 'c'],
    ['include/queue.h', 'c'],
    ['src/engine.cpp', 'cpp'],
    ['src/engine.cc', 'cpp'],
    ['include/engine.hpp', 'cpp'],
    ['package.json', 'json'],
    ['README.md', 'markdown'],
    ['Cargo.toml', 'toml'],
    ['Cargo.lock', 'toml'],
    ['.github/workflows/ci.yml', 'yaml'],
    ['config.yaml', 'yaml'],
    ['public/index.html', 'html'],
    ['src/style.css', 'css'],
    ['scripts/build.sh', 'shell'],
    ['.bashrc', 'shell'],
    ['Dockerfile', 'dockerfile'],
    ['docker/Dockerfile.dev', 'dockerfile'],
  ])('%s is %s', (path, id) => {
    expect(languageFor(path)).toBe(id);
  });

  test('ignores case and Windows separators', () => {
    expect(languageFor('SRC/MAIN.RS')).toBe('rust');
    expect(languageFor('C:\\work\\tool\\gen.py')).toBe('python');
  });

  test('unknown names are plain text', () => {
    expect(languageFor('notes.txt')).toBeNull();
    expect(languageFor('Makefile')).toBeNull();
    expect(languageFor('LICENSE')).toBeNull();
  });

  test('a #! line names the language of a file without extension', () => {
    expect(languageFor('bin/deploy', '#!/bin/bash')).toBe('shell');
    expect(languageFor('bin/tool', '#!/usr/bin/env python3')).toBe('python');
    expect(languageFor('bin/run', '#!/usr/bin/env -S node --no-warnings')).toBe('javascript');
    expect(languageFor('bin/x', '#!/usr/bin/perl')).toBeNull();
    // The extension wins over the #! line.
    expect(languageFor('run.py', '#!/bin/sh')).toBe('python');
  });
});

describe('loadLanguage', () => {
  test('every language loads a CodeMirror language', async () => {
    for (const id of Object.keys(languageNames) as LanguageId[]) {
      const ext = await loadLanguage(id);
      const state = EditorState.create({ doc: 'x', extensions: ext });
      expect(state.facet(language), id).not.toBeNull();
      expect(languageIfLoaded(id), id).toBe(ext);
    }
  });

  test('a language is loaded once', async () => {
    expect(await loadLanguage('rust')).toBe(await loadLanguage('rust'));
  });
});
