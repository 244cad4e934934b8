def default_id_of(schema):
    return schema.get("$id", "")


def create(meta_schema, id_of=default_id_of):
    class Validator:
        ID_OF = staticmethod(id_of)
        META_SCHEMA = meta_schema

        def __init__(self, schema):
            self.schema = schema

        def scope(self):
            return id_of(self.schema)

    return Validator


Plain = create({"$id": "plain"})
Custom = create({"id": "custom"}, id_of=lambda s: s.get("id", ""))


def extend_id_of(schema):
    return schema.get("__test__", Plain.ID_OF(schema))


Plain.ID_OF(Plain.META_SCHEMA)
Plain({"$id": "x"}).scope()
Custom.META_SCHEMA
extend_id_of({})
