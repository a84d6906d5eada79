// s3rver ships no types; the tests use only this much of it.
declare module 's3rver' {
  type TOptions = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  };
  export default class S3rver {
    constructor(options: TOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
