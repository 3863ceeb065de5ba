"""A minimal ONNX writer for small convolutional networks (Conv, ConvTranspose, Relu, Add,
MaxPool, Flatten, Gemm).

Why: torch.onnx.export needs the `onnx` package, which this project does not depend on; the
ONNX file format is a protobuf simple enough to encode by hand for the few operators the card
localiser and the card classifier use, so onnxruntime (onnx_session.py) can run the shipped
weights with no training stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

_FLOAT = 1
_ATTR_INT, _ATTR_INTS = 2, 7


def _varint(n: int) -> bytes:
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _varint((number << 3) | wire)


def _int(number: int, value: int) -> bytes:
    return _key(number, 0) + _varint(value)


def _bytes(number: int, value: bytes | str) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return _key(number, 2) + _varint(len(data)) + data


def _attribute(name: str, value: int | list[int]) -> bytes:
    if isinstance(value, int):
        return _bytes(1, name) + _int(3, value) + _int(20, _ATTR_INT)
    return _bytes(1, name) + b"".join(_int(8, v) for v in value) + _int(20, _ATTR_INTS)


def _tensor(name: str, array: np.ndarray) -> bytes:
    a = np.ascontiguousarray(array, np.float32)
    return (b"".join(_int(1, d) for d in a.shape) + _int(2, _FLOAT) + _bytes(8, name)
            + _bytes(9, a.astype("<f4").tobytes()))


def _value_info(name: str, shape: tuple[int, ...]) -> bytes:
    dims = b"".join(_bytes(1, _int(1, d)) for d in shape)
    tensor_type = _int(1, _FLOAT) + _bytes(2, dims)
    return _bytes(1, name) + _bytes(2, _bytes(1, tensor_type))


@dataclass
class Graph:
    """Nodes added in order; `encode` gives the model file's bytes."""

    input_shape: tuple[int, ...]
    nodes: list[bytes] = field(default_factory=list)
    weights: list[bytes] = field(default_factory=list)
    count: int = 0

    def _name(self, op: str) -> str:
        self.count += 1
        return f"{op}{self.count}"

    def node(self, op: str, inputs: list[str], attrs: dict[str, int | list[int]] | None = None,
             ) -> str:
        out = self._name(op)
        body = b"".join(_bytes(1, i) for i in inputs) + _bytes(2, out) + _bytes(3, out) + \
            _bytes(4, op) + b"".join(_bytes(5, _attribute(k, v))
                                     for k, v in (attrs or {}).items())
        self.nodes.append(body)
        return out

    def weight(self, array: np.ndarray) -> str:
        name = self._name("w")
        self.weights.append(_tensor(name, array))
        return name

    def conv(self, x: str, w: np.ndarray, b: np.ndarray, stride: int = 1, dilation: int = 1,
             transpose: bool = False) -> str:
        k = int(w.shape[2])
        pad = 0 if transpose else dilation * (k - 1) // 2
        attrs: dict[str, int | list[int]] = {"kernel_shape": [k, k], "strides": [stride, stride],
                                             "pads": [pad] * 4, "dilations": [dilation] * 2,
                                             "group": 1}
        return self.node("ConvTranspose" if transpose else "Conv",
                         [x, self.weight(w), self.weight(b)], attrs)

    def encode(self, output: str, output_shape: tuple[int, ...]) -> bytes:
        graph = b"".join(_bytes(1, n) for n in self.nodes) + _bytes(2, "graph") + \
            b"".join(_bytes(5, w) for w in self.weights) + \
            _bytes(11, _value_info("input", self.input_shape)) + \
            _bytes(12, _value_info(output, output_shape))
        opset = _bytes(1, "") + _int(2, 13)
        return _int(1, 7) + _bytes(2, "devices.camera") + _bytes(7, graph) + \
            _bytes(8, opset)
