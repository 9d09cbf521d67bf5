// Attack (file reads through the compiler): #includes a canary in $HOME, a private key in ~/.ssh and
// /etc/passwd by absolute path. The compiler fails on them and quotes their lines in its error, which
// becomes the build_failed reason (and an LLM prompt). A trusted evaluator compiles where these files
// do not exist: the build fails without their contents in any message.
#include "hiera_contract.h"
#include "@HOME@/canary.txt"
#include "@HOME@/.ssh/id_ed25519"
#include "/etc/passwd"

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) {
    (void)x; (void)out; (void)stream;
    return 0;
}
