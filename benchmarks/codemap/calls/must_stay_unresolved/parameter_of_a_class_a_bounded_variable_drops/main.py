"""A class whose instances reach a call only through a variable past the value bound.

``kinds`` holds 131 classes, more than a variable keeps (128): which ones it keeps depends
on the order their values arrive in, and ``Last`` comes last. ``handler.handle(other)``
runs ``Last.handle`` too, so ``given.name()`` there runs ``Other.name`` as well as
``Ref.name``: ``Last.handle -> Ref.name`` is no certain edge, whether or not ``Last`` was
kept.
"""


class Ref:
    def name(self):
        return "ref"


class Other:
    def name(self):
        return "other"


class Base:
    def handle(self, given):
        return given


class Last:
    def handle(self, given):
        return given.name()  # unresolved


class H0(Base):
    pass


class H1(Base):
    pass


class H2(Base):
    pass


class H3(Base):
    pass


class H4(Base):
    pass


class H5(Base):
    pass


class H6(Base):
    pass


class H7(Base):
    pass


class H8(Base):
    pass


class H9(Base):
    pass


class H10(Base):
    pass


class H11(Base):
    pass


class H12(Base):
    pass


class H13(Base):
    pass


class H14(Base):
    pass


class H15(Base):
    pass


class H16(Base):
    pass


class H17(Base):
    pass


class H18(Base):
    pass


class H19(Base):
    pass


class H20(Base):
    pass


class H21(Base):
    pass


class H22(Base):
    pass


class H23(Base):
    pass


class H24(Base):
    pass


class H25(Base):
    pass


class H26(Base):
    pass


class H27(Base):
    pass


class H28(Base):
    pass


class H29(Base):
    pass


class H30(Base):
    pass


class H31(Base):
    pass


class H32(Base):
    pass


class H33(Base):
    pass


class H34(Base):
    pass


class H35(Base):
    pass


class H36(Base):
    pass


class H37(Base):
    pass


class H38(Base):
    pass


class H39(Base):
    pass


class H40(Base):
    pass


class H41(Base):
    pass


class H42(Base):
    pass


class H43(Base):
    pass


class H44(Base):
    pass


class H45(Base):
    pass


class H46(Base):
    pass


class H47(Base):
    pass


class H48(Base):
    pass


class H49(Base):
    pass


class H50(Base):
    pass


class H51(Base):
    pass


class H52(Base):
    pass


class H53(Base):
    pass


class H54(Base):
    pass


class H55(Base):
    pass


class H56(Base):
    pass


class H57(Base):
    pass


class H58(Base):
    pass


class H59(Base):
    pass


class H60(Base):
    pass


class H61(Base):
    pass


class H62(Base):
    pass


class H63(Base):
    pass


class H64(Base):
    pass


class H65(Base):
    pass


class H66(Base):
    pass


class H67(Base):
    pass


class H68(Base):
    pass


class H69(Base):
    pass


class H70(Base):
    pass


class H71(Base):
    pass


class H72(Base):
    pass


class H73(Base):
    pass


class H74(Base):
    pass


class H75(Base):
    pass


class H76(Base):
    pass


class H77(Base):
    pass


class H78(Base):
    pass


class H79(Base):
    pass


class H80(Base):
    pass


class H81(Base):
    pass


class H82(Base):
    pass


class H83(Base):
    pass


class H84(Base):
    pass


class H85(Base):
    pass


class H86(Base):
    pass


class H87(Base):
    pass


class H88(Base):
    pass


class H89(Base):
    pass


class H90(Base):
    pass


class H91(Base):
    pass


class H92(Base):
    pass


class H93(Base):
    pass


class H94(Base):
    pass


class H95(Base):
    pass


class H96(Base):
    pass


class H97(Base):
    pass


class H98(Base):
    pass


class H99(Base):
    pass


class H100(Base):
    pass


class H101(Base):
    pass


class H102(Base):
    pass


class H103(Base):
    pass


class H104(Base):
    pass


class H105(Base):
    pass


class H106(Base):
    pass


class H107(Base):
    pass


class H108(Base):
    pass


class H109(Base):
    pass


class H110(Base):
    pass


class H111(Base):
    pass


class H112(Base):
    pass


class H113(Base):
    pass


class H114(Base):
    pass


class H115(Base):
    pass


class H116(Base):
    pass


class H117(Base):
    pass


class H118(Base):
    pass


class H119(Base):
    pass


class H120(Base):
    pass


class H121(Base):
    pass


class H122(Base):
    pass


class H123(Base):
    pass


class H124(Base):
    pass


class H125(Base):
    pass


class H126(Base):
    pass


class H127(Base):
    pass


class H128(Base):
    pass


class H129(Base):
    pass


kinds = (
    H0,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    H7,
    H8,
    H9,
    H10,
    H11,
    H12,
    H13,
    H14,
    H15,
    H16,
    H17,
    H18,
    H19,
    H20,
    H21,
    H22,
    H23,
    H24,
    H25,
    H26,
    H27,
    H28,
    H29,
    H30,
    H31,
    H32,
    H33,
    H34,
    H35,
    H36,
    H37,
    H38,
    H39,
    H40,
    H41,
    H42,
    H43,
    H44,
    H45,
    H46,
    H47,
    H48,
    H49,
    H50,
    H51,
    H52,
    H53,
    H54,
    H55,
    H56,
    H57,
    H58,
    H59,
    H60,
    H61,
    H62,
    H63,
    H64,
    H65,
    H66,
    H67,
    H68,
    H69,
    H70,
    H71,
    H72,
    H73,
    H74,
    H75,
    H76,
    H77,
    H78,
    H79,
    H80,
    H81,
    H82,
    H83,
    H84,
    H85,
    H86,
    H87,
    H88,
    H89,
    H90,
    H91,
    H92,
    H93,
    H94,
    H95,
    H96,
    H97,
    H98,
    H99,
    H100,
    H101,
    H102,
    H103,
    H104,
    H105,
    H106,
    H107,
    H108,
    H109,
    H110,
    H111,
    H112,
    H113,
    H114,
    H115,
    H116,
    H117,
    H118,
    H119,
    H120,
    H121,
    H122,
    H123,
    H124,
    H125,
    H126,
    H127,
    H128,
    H129,
    Last,
)


def main():
    Last().handle(Ref())
    handlers = []
    for kind in kinds:
        handlers.append(kind())  # unresolved
    other = Other()
    for handler in handlers:
        handler.handle(other)  # unresolved


main()
