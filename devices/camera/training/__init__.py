"""Training the learned card classifier (devices/camera/card_classifier.py) from the scans.

Needs the optional `train` extra (torch); the studio itself runs the shipped weights with numpy.
"""
