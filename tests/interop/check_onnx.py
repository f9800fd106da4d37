#!/usr/bin/python3
"""Checks a Trainbench ONNX export with Debian's python3-onnx: the full checker (with strict shape
inference), opset 13 or later, the uint8 input, the named outputs and the metadata (model name,
class names, version, and the weights' SHA-256 that trainbench-cli printed).

A text model's export (INPUT "tokens") takes int64 token ids instead.

usage: check_onnx.py MODEL.onnx MODEL_NAME WEIGHTS_SHA256 CLASS_COUNT [INPUT]
"""
import json
import sys

import onnx


def main():
    path, name, sha, classes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    input_name = sys.argv[5] if len(sys.argv) > 5 else "image"
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    opset = {o.domain: o.version for o in model.opset_import}
    assert opset.get("", 0) >= 13, f"opset {opset}"
    g = model.graph
    assert [i.name for i in g.input] == [input_name], [i.name for i in g.input]
    want = onnx.TensorProto.INT64 if input_name == "tokens" else onnx.TensorProto.UINT8
    assert g.input[0].type.tensor_type.elem_type == want
    assert [o.name for o in g.output] == ["logits", "probabilities", "class"], [o.name for o in g.output]
    ops = sorted({n.op_type for n in g.node})
    assert "Dropout" not in ops
    meta = {p.key: p.value for p in model.metadata_props}
    assert meta["model_name"] == name, meta["model_name"]
    assert meta["weights_sha256"] == sha, (meta["weights_sha256"], sha)
    assert len(json.loads(meta["class_names"])) == classes
    assert meta["trainbench_version"]
    print(json.dumps({"model": path, "onnx": onnx.__version__, "ir_version": model.ir_version, "opset": opset[""],
                      "operators": ops, "class_names": json.loads(meta["class_names"])}))


if __name__ == "__main__":
    main()
