// Build and test configuration; the `mock` mode adds the dev harness page, kept out of dist/.
import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => {
  const mock = mode === 'mock';
  const input: Record<string, string> = { main: 'index.html' };
  if (mock) input.mock = 'dev/mock.html';
  return {
    // Relative asset URLs let the same build be served by Tauri's protocol or a plain static server.
    base: './',
    build: {
      outDir: mock ? 'dist-mock' : 'dist',
      emptyOutDir: true,
      rolldownOptions: {
        input,
        output: {
          // Name lazy grammar chunks after their package (lang-rust, lezer-css…) instead of "dist".
          chunkFileNames: (chunk) => {
            const ids = chunk.facadeModuleId ? [chunk.facadeModuleId] : chunk.moduleIds;
            const pkg = ids.map((id) => /node_modules\/@(?:codemirror|lezer)\/([\w-]+)(?:\/mode\/([\w-]+))?/.exec(id))
              .find(Boolean);
            const name = pkg ? (pkg[2] ?? (pkg[0].includes('@lezer') ? `lezer-${pkg[1]}` : pkg[1])) : '[name]';
            return `assets/${name}-[hash].js`;
          },
        },
      },
    },
    server: { open: mock ? '/dev/mock.html' : undefined },
    test: {
      environment: 'happy-dom',
      include: ['test/**/*.test.ts'],
      setupFiles: ['test/setup.ts'],
    },
  };
});
