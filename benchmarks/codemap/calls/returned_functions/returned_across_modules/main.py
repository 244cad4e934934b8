from plugins import loader

run = loader.pick()
run()
