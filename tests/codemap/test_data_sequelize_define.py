"""Sequelize models made by ``sequelize.define("tutorial", {...})`` in a module's exported
function and reached as an object's property (``db.tutorials = require("./tutorial.model")(
sequelize, Sequelize)``; ``const Tutorial = db.tutorials; Tutorial.findAll()``)."""

from __future__ import annotations

import json

from map_helpers import Repo, build

INDEX = """
const Sequelize = require("sequelize");
const sequelize = new Sequelize("db", "user", "pw", { dialect: "mysql" });

const db = {};
db.Sequelize = Sequelize;
db.sequelize = sequelize;
db.tutorials = require("./tutorial.model.js")(sequelize, Sequelize);
db.tags = require("./tag.model.js")(sequelize, Sequelize);

module.exports = db;
"""
TUTORIAL = """
module.exports = (sequelize, Sequelize) => {
  const Tutorial = sequelize.define("tutorial", {
    title: { type: Sequelize.STRING },
  });
  return Tutorial;
};
"""
TAG = """
module.exports = (sequelize, Sequelize) => {
  return sequelize.define("tag", { name: Sequelize.STRING }, { tableName: "tags" });
};
"""
CONTROLLER = """
const db = require("../models");
const Tutorial = db.tutorials;

exports.create = (req, res) => Tutorial.create(req.body).then((data) => res.send(data));
exports.findAll = (req, res) => Tutorial.findAll({ where: null });
exports.tags = (req, res) => db.tags.findAll();
"""


def test_a_model_sequelize_defines_is_read_and_written_through_the_objects_property(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "app/models/index.js": INDEX,
            "app/models/tutorial.model.js": TUTORIAL,
            "app/models/tag.model.js": TAG,
            "app/controllers/tutorial.controller.js": CONTROLLER,
        },
    )
    assert repo.pairs("reads") == {
        ("app/controllers/tutorial.controller.exports.findAll", "sequelize:tutorial"),
        ("app/controllers/tutorial.controller.exports.tags", "sequelize:tag"),
    }
    assert repo.pairs("writes") == {
        ("app/controllers/tutorial.controller.exports.create", "sequelize:tutorial"),
    }
    assert repo.pairs("maps_to") == {("sequelize:tag", "table:tags")}
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted == {
        "model table not known: Sequelize's default table name (the model name pluralised)"
        " is not derived": 1
    }


def test_define_on_anything_but_a_sequelize_instance_is_no_model(repo: Repo) -> None:
    build(
        repo,
        {
            "app/models/index.js": """
const Store = require("some-store");
const db = {};
db.tutorials = require("./tutorial.model.js")(new Store(), null);
db.others = require("./other.model.js");
module.exports = db;
""",
            "app/models/tutorial.model.js": TUTORIAL,
            # handed on, never called here: what its parameter gets is not known
            "app/models/other.model.js": TUTORIAL.replace('"tutorial"', '"other"'),
            "app/run.js": """
const make = require("./models/other.model.js");
module.exports = (registry) => registry.add(make);
""",
            "app/controllers/tutorial.controller.js": CONTROLLER,
        },
    )
    assert repo.pairs("reads") == set()
    assert repo.pairs("writes") == set()
    assert not [n for n in repo.map.nodes() if n.key.qualname.startswith("sequelize:")]
