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
      requests?: { setupRequest?: (request: RequestParams) => RequestParams }[];
    }
    interface Histogram {
      p50: number;
      p90: number;
      p99: number;
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
