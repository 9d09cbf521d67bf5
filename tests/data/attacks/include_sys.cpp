// Attack (the host's network address through the compiler): includes a file of /sys by absolute path. The
// compiler quotes what it cannot parse in its error, and the error reaches the user and the LLM. A trusted
// build gives the compiler no /sys: "No such file or directory".
#include "hiera_contract.h"
#include "/sys/class/net/@IFACE@/address"

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) { return 0; }
