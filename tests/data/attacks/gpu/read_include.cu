// Attack (file reads through nvcc): #includes a canary in $HOME, a private key in ~/.ssh and /etc/passwd
// by absolute path; nvcc's host compiler quotes their lines in its error, which becomes the build_failed
// reason (and an LLM prompt). A trusted evaluator compiles where these files do not exist: the build
// fails without their contents in any message.
#include "hiera_contract.h"
#include "@HOME@/canary.txt"
#include "@HOME@/.ssh/id_ed25519"
#include "/etc/passwd"

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale, hiera_tensor* out,
                             void* stream) {
    return 0;
}
