// Imported first by every command-line entry point (the CLIs, `npm start`, the deploy scripts).
// On Node 20 the AWS SDK prints a 7-line NodeVersionSupportWarning at its first client: SDK
// releases after the first week of January 2027 need Node 22. We know, and the README's "Node
// runtime policy" says when we move (Lambda already runs nodejs22.x). The SDK's documented switch,
// AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true, silences that warning and no other; it is
// set only below Node 22 and only when the user has not set it either way. Child processes
// (the offline stack) inherit it.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22 && process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED === undefined) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
}
