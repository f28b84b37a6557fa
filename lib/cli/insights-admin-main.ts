// Process wiring of the `insights-admin` command (bin lib/cli/insights-admin.mjs loads this through
// tsx): real streams and the exit status. The commands live in lib/cli/admin/.
import { runAdmin } from './admin/main';

process.exitCode = await runAdmin(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
