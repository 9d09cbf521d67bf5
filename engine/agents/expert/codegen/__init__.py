"""Code generators over the kernel IR (engine/agents/expert/ir.py).

common.py (index arithmetic, the expression emitter), pointwise.py (fused pointwise CUDA kernels),
reduction.py (row-reduction CUDA kernels), gemm.py (cuBLAS, cuBLASLt with epilogues, tiled SGEMM),
cuda_program.py (a whole .cu around hiera_forward), cpu.py (the C++ candidate), torch_variants.py
(ModelNew files around torch.compile, CUDA graphs and cuDNN autotuning), variants.py (the knobs).
"""
