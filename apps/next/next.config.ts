import type { NextConfig } from 'next';

const config: NextConfig = {
  transpilePackages: ['@bench/stream'],
  // valkey-glide loads a native binding: required at run time, never bundled.
  serverExternalPackages: ['@valkey/valkey-glide'],
  // Same wire format as every other contender: no gzip, no powered-by header.
  compress: false,
  poweredByHeader: false,
};

export default config;
