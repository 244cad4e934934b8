from pkg import sub

sub.f()
