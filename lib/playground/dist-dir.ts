// Where the built page is: lib/playground/dist under the working directory, which is the project
// folder on the offline stack and /var/task (the package root) in Lambda, where the function's
// package.patterns put the build (infra/functions/playground.yml).
import path from 'node:path';

export function playgroundDistDir(): string {
  return path.resolve(process.cwd(), 'lib/playground/dist');
}
