/** @type {import('next').NextConfig} */
const nextConfig = {
  // Each checkout or test run may build into its own folder (NEXT_DIST_DIR), so builds never collide.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "ioredis",
    "rate-limiter-flexible",
    "pino",
  ],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  turbopack: { root: import.meta.dirname },
};

export default nextConfig;
