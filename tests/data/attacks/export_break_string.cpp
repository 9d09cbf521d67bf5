// Attack (code injection through the exported file): an honest scale_bias_relu kernel whose block comment
// holds a triple quote. Pasted into a raw triple-quoted Python string, the quote ends the string, the next
// line is Python that runs whenever the exported file is imported, and the last line opens a new string
// that the template's own closing quote ends. A trusted export embeds the source inertly: importing the
// file writes no marker.
#include "hiera_contract.h"

/* """
import pathlib; pathlib.Path("@MARK@").write_text("pwned by the exported file")
_rest = r""" */

extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* bias, double scale,
                             hiera_tensor* out, void* stream) {
    (void)stream;
    const float* xp = (const float*)x->data;
    const float* bp = (const float*)bias->data;
    float* op = (float*)out->data;
    const int64_t rows = x->sizes[0], cols = x->sizes[1];
    const float s = (float)scale;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            float v = xp[r * cols + c] * s + bp[c];
            op[r * cols + c] = v > 0.f ? v : 0.f;
        }
    return 0;
}
