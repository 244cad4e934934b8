"""The table an ORM documents for a model that names none: TypeORM's DefaultNamingStrategy
(``snakeCase`` of the class name) with provenance ``table-default``, unless the repository
configures naming; Sequelize's pluralised default is counted, not derived."""

from __future__ import annotations

import json

from map_helpers import Repo, build

from groundkit.codemap.model import Provenance

ENTITIES = {
    "src/entity/UserProfile.ts": """
import { Entity, PrimaryGeneratedColumn } from "typeorm";

@Entity()
export class UserProfile {
  @PrimaryGeneratedColumn()
  id!: number;
}
""",
    "src/entity/HTMLPage.ts": """
import { Entity } from "typeorm";

@Entity()
export class HTMLPage {}
""",
    "src/models/tutorial.js": """
const { Model } = require("sequelize");

class Tutorial extends Model {}
Tutorial.init({}, { sequelize });
module.exports = Tutorial;
""",
}


def _counted(repo: Repo) -> dict[str, int]:
    return dict(json.loads(repo.map.store.manifest()["data_unresolved"]))


def test_a_typeorm_entity_naming_no_table_maps_to_the_snake_case_of_its_class(
    repo: Repo,
) -> None:
    build(repo, ENTITIES)
    assert repo.pairs("maps_to") == {("src/entity/UserProfile.UserProfile", "table:user_profile")}
    edge = repo.edge("maps_to", "src/entity/UserProfile.UserProfile", "table:user_profile")
    assert edge.provenance == Provenance.TABLE_DEFAULT  # type: ignore[attr-defined]
    assert "@Entity()" in edge.quote  # type: ignore[attr-defined]
    # capitals that meet: snakeCase differs between TypeORM versions; Sequelize: no inflector
    assert _counted(repo) == {
        "model table not known: TypeORM's default table name depends on the naming strategy": 1,
        "model table not known: Sequelize's default table name (the model name pluralised)"
        " is not derived": 1,
    }


def test_a_naming_strategy_in_a_data_source_leaves_every_default_unknown(repo: Repo) -> None:
    source = """
import { DataSource } from "typeorm";
import { SnakeNamingStrategy } from "typeorm-naming-strategies";

export const AppDataSource = new DataSource({
  type: "postgres",
  namingStrategy: new SnakeNamingStrategy(),
});
"""
    build(repo, {**ENTITIES, "src/data-source.ts": source})
    assert repo.pairs("maps_to") == set()


def test_an_entity_prefix_in_ormconfig_json_leaves_every_default_unknown(repo: Repo) -> None:
    config = json.dumps({"type": "mysql", "entityPrefix": "app_"})
    build(repo, {**ENTITIES, "ormconfig.json": config})
    assert repo.pairs("maps_to") == set()
    assert (
        _counted(repo)[
            "model table not known: TypeORM's default table name depends on the naming strategy,"
            " and the repository configures it"
        ]
        == 1
    )
