import type { NextConfig } from 'next';

const config: NextConfig = {
  transpilePackages: ['@bench/stream'],
  // Same wire format as every other contender: no gzip, no powered-by header.
  compress: false,
  poweredByHeader: false,
};

export default config;
