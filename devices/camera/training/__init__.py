"""Training the learned card classifier (devices/camera/card_classifier.py) from the scans, and
the learned card localiser (devices/camera/card_localiser.py) from the wide scenes' views.

Needs the optional `train` extra (torch); the studio itself runs the shipped weights with
onnxruntime (../onnx_session.py; the localiser written as ONNX by ../onnx_writer.py, the
classifier's weights turned into ONNX when loaded).
"""
