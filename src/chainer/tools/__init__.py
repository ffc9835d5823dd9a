"""Tools around Chainer models: ``python -m chainer.tools.convert_checkpoint`` converts model
files between Chainer's ``.npz`` and PyTorch ``state_dict`` files (rechainer's addition)."""
