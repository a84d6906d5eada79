import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.resolve(import.meta.dirname, 'src/web');

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
      autoCodeSplitting: true,
      quoteStyle: 'single',
    }),
    react(),
    tailwindcss(),
  ],
  build: { outDir: path.resolve(import.meta.dirname, 'dist/web'), emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}`, ws: true } },
  },
});
