/** The part of wappalyzer-core's engine (a CommonJS singleton, no types of its own) that Glance calls. */
declare module 'wappalyzer-core' {
  export interface Category {
    readonly id: number;
    readonly name: string;
  }
  export interface Technology {
    readonly name: string;
  }
  export interface Detection {
    readonly technology: Technology;
  }
  export interface Resolved {
    readonly name: string;
    readonly confidence: number;
    readonly version: string;
    readonly icon: string;
    readonly website: string | null;
    readonly categories: readonly Category[];
  }
  /** What a page offers to the rules: one value per one-to-one type, lists per many-valued one. */
  export interface Items {
    url?: string;
    html?: string;
    scriptSrc?: string[];
    headers?: Record<string, string[]>;
    cookies?: Record<string, string[]>;
    meta?: Record<string, string[]>;
  }
  const Wappalyzer: {
    requires: ReadonlyArray<{ readonly name: string; readonly technologies: Technology[] }>;
    categoryRequires: ReadonlyArray<{ readonly categoryId: number; readonly technologies: Technology[] }>;
    setTechnologies(data: unknown): void;
    setCategories(data: unknown): void;
    getTechnology(name: string): (Technology & { categories: number[] }) | undefined;
    analyze(items: Items, technologies?: Technology[]): Detection[];
    resolve(detections: Detection[]): Resolved[];
  };
  export default Wappalyzer;
}
