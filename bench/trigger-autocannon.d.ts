// The part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      duration?: number;
      /** Requests to send in all (instead of a duration). */
      amount?: number;
      requests?: {
        setupRequest?: (request: RequestParams) => RequestParams;
        onResponse?: (status: number, body: string) => void;
      }[];
      /** Requests per second across all connections (an arrival rate instead of a closed loop). */
      overallRate?: number;
    }
    interface Histogram {
      p50: number;
      p90: number;
      p99: number;
      p99_9: number;
      max: number;
      average: number;
    }
    interface Result {
      "2xx": number;
      non2xx: number;
      errors: number;
      timeouts: number;
      requests: { total: number; average: number };
      latency: Histogram;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
