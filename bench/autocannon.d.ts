// The part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  interface Options {
    url: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
  }
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
