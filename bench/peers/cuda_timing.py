"""CUDA-event timing shared by the PyTorch peers: warm-up, then the median of per-call event times."""
import torch


def median_ms(fn, reps=50, warmup=5):
    """Median milliseconds of fn() over reps calls, each timed between two CUDA events, after warmup calls."""
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    for i in range(reps):
        start[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    t = sorted(s.elapsed_time(e) for s, e in zip(start, end))
    return t[reps // 2]
