import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/precompress.ts';

const root = path.resolve(import.meta.dirname, 'src/web');

const COMMON_FIRST_SCREEN = [
  /src[\\/]web[\\/]ui[\\/](badge|card|empty-state|skeleton|status-badge|format)\.tsx$/,
  /src[\\/]web[\\/]features[\\/]requests[\\/]request-status-badge\.tsx$/,
  /src[\\/]domain[\\/](format|dates|time-zone-names)\.ts$/,
  /node_modules[\\/]@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](useBaseQuery|useQuery|useSuspenseQuery)\.js$/,
  /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](house|clipboard-list|file-text|folder-kanban|messages-square|receipt|square-check-big|pen-line|log-out|building-complex|chevron-right|chevron-left|download|upload|x)\.m?js$/,
];
const isCommonFirstScreenModule = (id: string) => COMMON_FIRST_SCREEN.some((re) => re.test(id));

export default defineConfig({
  root,
  publicDir: path.join(root, 'public'),
  resolve: {
    alias: {
      '@domain': path.resolve(import.meta.dirname, 'src/domain'),
      '@web': root,
    },
  },
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: path.join(root, 'routes'),
      generatedRouteTree: path.join(root, 'route-tree.gen.ts'),
      // Screens are split by hand with .lazy.tsx files: TanStack's automatic splitting wraps them in
      // its own reload-on-missing-chunk rule, which would fight SPEC.md's (once per 10 s per path).
      autoCodeSplitting: false,
      quoteStyle: 'single',
    }),
    react(),
    tailwindcss(),
    precompress(),
  ],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // The design system's modules (src/web/ui, imported through its index) do nothing on import:
      // a screen gets only the widgets it uses, so the date picker comes with the screens that
      // show one rather than with the first page.
      treeshake: {
        moduleSideEffects: (id: string) => !id.startsWith(path.join(root, 'ui') + path.sep),
      },
      output: {
        // Everything the entry imports statically is fetched on every first load anyway: three
        // chunks instead of about thirty (route configs' domain modules, the router, tRPC...) save
        // their request headers and compress better (about 30 KB on the wire per screen). React
        // and the other packages apart from our code: a release changes only the app's chunk, so
        // a returning browser keeps the other two. Screens' lazy chunks still split as before.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 3,
            },
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/, priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
            // The small modules the portal's and the staff's first screens share after the entry
            // (cards, badges, dates and their format, React Query's hooks, the navigation's icons):
            // one chunk rather than about twenty-five of 0.5-3 KB, each mostly headers. A staff
            // screen that uses one of them fetches the rest with it (about 12 KB, cached after the
            // shell). Not the sign-in pages' (the input, useMutation): they stay as small as they are.
            { name: 'common', test: isCommonFirstScreenModule, priority: 0 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}`, ws: true } },
  },
});
