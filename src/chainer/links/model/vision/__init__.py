"""Image classification models with Chainer's layer names (VGG, GoogLeNet, ResNet)."""
