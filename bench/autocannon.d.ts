// The part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  /** The request autocannon is about to send; setupRequest returns it changed. */
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  export interface Options {
    url: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    /** Each connection goes through these in turn; setupRequest runs before every request. */
    requests?: { setupRequest?: (request: Request) => Request }[];
  }
  export interface Result {
    latency: { p50: number; p99: number };
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
    statusCodeStats: Record<string, { count: number }>;
    /** Seconds. */
    duration: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
