export declare const BUNDLE_PACKAGE_JSON: string;
export declare function markCommonJsBundleFolders(dir: string): string[];
