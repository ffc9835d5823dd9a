"""TransformDataset: applies a function to each example when it is read."""
from chainer.dataset import dataset_mixin


class TransformDataset(dataset_mixin.DatasetMixin):
    """Dataset whose examples are ``transform(dataset[i])``, computed on access.

    Useful for data augmentation: the function runs each time an example is
    read (so random transforms differ between epochs).

    Args:
        dataset: The underlying dataset.
        transform (callable): Function of one example.
    """

    def __init__(self, dataset, transform):
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
