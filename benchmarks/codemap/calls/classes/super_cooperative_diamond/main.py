class A:
    def step(self):
        return ["A"]


class B(A):
    def step(self):
        return ["B", *super().step()]


class C(A):
    def step(self):
        return ["C", *super().step()]


class D(B, C):
    pass


B().step()
D().step()
