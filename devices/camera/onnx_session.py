"""Running the shipped ONNX networks (card classifier, index reader, localiser, cover mask).

Why onnxruntime and not OpenCV's DNN module, which ran them until the forty-fifth session: on
these small networks it is 2.3-2.6 times as fast a forward on one core (this machine,
2026-12-03: the French classifier's 60x40 crop 0.31 against 0.81 ms, the index reader's
0.15 against 0.36, the localiser's view 1.95 against 4.63, the cover mask's 3.02 against
6.83), with the same outputs to 1e-5; and one session may be run from several threads at
once, where a cv2.dnn.Net may not (two threads sharing one gave wrong outputs), so the
tables' worker threads share one session per network instead of building one each.

One thread per run: a studio runs a table's recognition in a worker thread per table, so the
cores are shared between tables, not within one forward.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort


def _options() -> ort.SessionOptions:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3  # warnings about unused initialisers are not the caller's
    return options


class OnnxNet:
    """One ONNX network with a single input and a single output."""

    def __init__(self, model: bytes | Path) -> None:
        source = model if isinstance(model, bytes) else str(model)
        self._session = ort.InferenceSession(source, _options(),
                                             providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    def run(self, x: np.ndarray) -> np.ndarray:
        """The output for input `x` (float32, the network's input shape)."""
        out = self._session.run(None, {self._input: np.ascontiguousarray(x, np.float32)})
        return np.asarray(out[0])


__all__ = ["OnnxNet"]
