import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { layout, physical, rootRoute } from '@tanstack/virtual-file-routes';
import react from '@vitejs/plugin-react';
import type { ChunkingContext } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './scripts/precompress.ts';
import { isPortalPath } from './src/domain/route-guard.ts';

const root = path.resolve(import.meta.dirname, 'src/web');

const COMMON_FIRST_SCREEN = [
  /src[\\/]web[\\/]ui[\\/](badge|card|empty-state|skeleton|status-badge|format|icon-button|textarea)\.tsx$/,
  /src[\\/]web[\\/]features[\\/]requests[\\/]request-status-badge\.tsx$/,
  /src[\\/]domain[\\/](format|greeting|time-zone-names|rate-text|document-paths)\.ts$/,
  /node_modules[\\/]@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](useBaseQuery|useQuery|useSuspenseQuery|useMutation)\.js$/,
  /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](house|clipboard-list|file-text|folder-kanban|messages-square|receipt|square-check-big|pen-line|log-out|building-complex|chevron-right|chevron-left|download|upload|x)\.m?js$/,
];
const isCommonFirstScreenModule = (id: string) => COMMON_FIRST_SCREEN.some((re) => re.test(id));

// The pages' entries are their HTML files (Vite makes each a module that imports its main).
const ENTRIES = { staff: path.join(root, 'index.html'), portal: path.join(root, 'portal.html') };

/**
 * The modules an entry imports, directly or not: statically only (what its page loads at first),
 * or with its screens' lazy imports too.
 */
function closure(ctx: ChunkingContext, entry: string, lazyToo: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const info = ctx.getModuleInfo(id);
    if (!info) continue;
    stack.push(...info.importedIds, ...(lazyToo ? info.dynamicallyImportedIds : []));
  }
  return seen;
}

type TPages = { staff: Set<string>; portal: Set<string>; portalAll: Set<string> };
// One chunking pass asks for every module's name with the same context.
const closures = new WeakMap<ChunkingContext, TPages>();
function pagesOf(ctx: ChunkingContext): TPages {
  let pages = closures.get(ctx);
  if (!pages) {
    pages = {
      staff: closure(ctx, ENTRIES.staff, false),
      portal: closure(ctx, ENTRIES.portal, false),
      portalAll: closure(ctx, ENTRIES.portal, true),
    };
    closures.set(ctx, pages);
  }
  return pages;
}

/**
 * A first-load group split by page: what the portal's page loads at first (or a portal screen may
 * import) is `shared` (the staff page loads it too), the staff page's own `staffOnly`. The portal's
 * own modules (its route tree and entry) stay out of both, in its entry chunk. Nothing a portal
 * screen imports may go to `staffOnly`: left uncaptured, it would be taken in as a dependency of
 * the staff modules that import it, and the portal would fetch that chunk after all.
 */
const byPage =
  (shared: string, staffOnly: string) =>
  (id: string, ctx: ChunkingContext): string | null => {
    const pages = pagesOf(ctx);
    if (id === ENTRIES.staff || id === ENTRIES.portal) return null;
    if (pages.portal.has(id)) return pages.staff.has(id) ? shared : null;
    return pages.portalAll.has(id) ? shared : staffOnly;
  };

/**
 * The portal's stylesheet (portal.css) has Tailwind scan only the portal's modules, listed by hand,
 * so it carries the utilities the portal uses rather than every screen's (7.6 KB rather than
 * 10.2 on every portal screen). A portal module left off the list would lose its styles without a
 * word: the build fails instead, naming it.
 */
const portalStylesScanPortalModules: Plugin = {
  name: 'portal-styles-scan-portal-modules',
  apply: 'build',
  generateBundle(_options, bundle) {
    const css = fs.readFileSync(path.join(root, 'portal.css'), 'utf8');
    // Listed as scanned, or as deliberately not (tailwind-merge's table of class groups).
    const scanned = [...css.matchAll(/@source (?:not )?"([^"]+)"/g)].map((m) =>
      path.resolve(root, m[1] as string),
    );
    const covered = (id: string) => scanned.some((s) => id === s || id.startsWith(s + path.sep));
    // The modules of every chunk the portal's page can load, as far as they made it into the chunk
    // (a module the design system's index names but no portal screen uses is left out of it).
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
    const entry = chunks.find((c) => c.facadeModuleId === ENTRIES.portal);
    const seen = new Set<string>();
    const stack = entry ? [entry.fileName] : [];
    for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
      const chunk = bundle[file];
      if (seen.has(file) || chunk?.type !== 'chunk') continue;
      seen.add(file);
      stack.push(...chunk.imports, ...chunk.dynamicImports);
    }
    const src = path.resolve(import.meta.dirname, 'src') + path.sep;
    const missed = [...seen].flatMap((file) => {
      const chunk = bundle[file];
      return chunk?.type === 'chunk'
        ? Object.entries(chunk.modules)
            .filter(
              ([id, m]) => m.renderedLength > 0 && id.startsWith(src) && /\.tsx?$/.test(id) && !covered(id),
            )
            .map(([id]) => path.relative(import.meta.dirname, id))
        : [];
    });
    if (!entry || missed.length > 0)
      this.error(
        `src/web/portal.css does not have Tailwind scan ${missed.join(', ') || "the portal's page"}, which the portal's page loads: add an @source for each`,
      );
  },
};

/** `npm run dev` answers the portal's paths with its own page, as the server does (app.ts). */
const portalPageInDev: Plugin = {
  name: 'portal-page-in-dev',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      const pathname = req.url?.split('?')[0] ?? '';
      if (req.headers.accept?.includes('text/html') && isPortalPath(pathname)) req.url = '/portal.html';
      next();
    });
  },
};

const routerOptions = {
  target: 'react',
  routesDirectory: path.join(root, 'routes'),
  generatedRouteTree: path.join(root, 'route-tree.gen.ts'),
  // Screens are split by hand with .lazy.tsx files: TanStack's automatic splitting wraps them in
  // its own reload-on-missing-chunk rule, which would fight SPEC.md's (once per 10 s per path).
  autoCodeSplitting: false,
  quoteStyle: 'single',
} as const;

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
    tanstackRouter(routerOptions),
    // The portal's page (portal.html) has a tree of its own, the same files under the same ids:
    // its entry then carries the portal's 37 route configs rather than all 201.
    tanstackRouter({
      ...routerOptions,
      generatedRouteTree: path.join(root, 'portal-route-tree.gen.ts'),
      virtualRouteConfig: rootRoute('__root.tsx', [
        layout('_auth', '_auth.tsx', [physical('/clientportal', '_auth/clientportal')]),
        physical('/clientportal', 'clientportal'),
      ]),
    }),
    react(),
    portalPageInDev,
    portalStylesScanPortalModules,
    tailwindcss(),
    precompress(),
  ],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // The staff app and the client portal: the server sends portal.html for /clientportal paths.
      input: { index: ENTRIES.staff, portal: ENTRIES.portal },
      // The design system's modules (src/web/ui, imported through its index) do nothing on import:
      // a screen gets only the widgets it uses, so the date picker comes with the screens that
      // show one rather than with the first page. Nor do tRPC client's (its package does not say
      // so): without this its WebSocket link, which the app does not use, was in every first load.
      treeshake: {
        moduleSideEffects: (id: string) =>
          !id.startsWith(path.join(root, 'ui') + path.sep) &&
          !/[\\/]node_modules[\\/]@trpc[\\/]client[\\/]/.test(id),
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
            {
              name: byPage('vendor', 'staff-vendor'),
              tags: ['$initial'],
              test: /node_modules[\\/]/,
              priority: 2,
            },
            // By page: what both pages import is 'app', the staff page's own (its route tree, the
            // staff screens' configs) 'staff'; the portal's own stays in its entry chunk.
            { name: byPage('app', 'staff'), tags: ['$initial'], priority: 1 },
            // The small modules the portal's and the staff's first screens share after the entry
            // (cards, badges, dates and their format, React Query's hooks, the navigation's icons,
            // the request screen's textarea and icon button): one chunk rather than about thirty of
            // 0.1-3 KB, each mostly headers. A staff screen that uses one of them fetches the rest
            // with it (about 10 KB, cached after the shell). The portal's sign-in takes it too (for
            // useMutation and the input's field): 138.7 KB, under the budget, and the request
            // screen five requests fewer (149.0 rather than 150.5).
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
