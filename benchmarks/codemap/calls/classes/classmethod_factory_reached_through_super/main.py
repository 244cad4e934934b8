class Key:
    def __init__(self, filename=None):
        self.filename = filename

    @classmethod
    def from_file(cls, filename):
        key = cls(filename=filename)
        return key

    def can_sign(self):
        return False


class RSAKey(Key):
    @classmethod
    def from_file(cls, filename):
        return super().from_file(filename)

    def can_sign(self):
        return True


class ECDSAKey(Key):
    def can_sign(self):
        return self.filename is not None


def load_rsa():
    key = RSAKey.from_file("rsa.key")
    return key.can_sign()


def load_ecdsa():
    key = ECDSAKey.from_file("ecdsa.key")
    return key.can_sign()


load_rsa()
load_ecdsa()
