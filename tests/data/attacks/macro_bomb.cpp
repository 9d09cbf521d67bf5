// Attack (exhausting the compiler): a macro that expands eightfold at each of ten levels, 8^10 copies of a
// 60-character string, which the preprocessor and the parser hold in memory. Uncapped, the compiler passes
// gigabytes in seconds and keeps growing until the build time limit. A trusted build caps the compiler's
// memory like a runner's: `build_failed` within seconds, the machine untouched.
#include "hiera_contract.h"

#define A0 "............................................................"
#define A1 A0 A0 A0 A0 A0 A0 A0 A0
#define A2 A1 A1 A1 A1 A1 A1 A1 A1
#define A3 A2 A2 A2 A2 A2 A2 A2 A2
#define A4 A3 A3 A3 A3 A3 A3 A3 A3
#define A5 A4 A4 A4 A4 A4 A4 A4 A4
#define A6 A5 A5 A5 A5 A5 A5 A5 A5
#define A7 A6 A6 A6 A6 A6 A6 A6 A6
#define A8 A7 A7 A7 A7 A7 A7 A7 A7
#define A9 A8 A8 A8 A8 A8 A8 A8 A8
#define A10 A9 A9 A9 A9 A9 A9 A9 A9

const char* hiera_bomb = A10;

extern "C" int hiera_forward(const hiera_tensor* x, hiera_tensor* out, void* stream) { return 0; }
