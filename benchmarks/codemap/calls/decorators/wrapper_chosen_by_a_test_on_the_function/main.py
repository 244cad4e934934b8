import inspect


def requires(f):
    if "socket" in inspect.signature(f).parameters:

        def socket_wrapper(socket):
            socket.append("checked")
            return f(socket)

        return socket_wrapper

    def request_wrapper(request):
        return f(request)

    return request_wrapper


@requires
def page(request):
    return request


@requires
def feed(socket):
    return socket


page("r")
feed([])
