"""TypeScript/JavaScript ORMs on the chain to the database: sequelize-typescript ``@Table``,
TypeORM ``@Entity``, Sequelize ``Model.init`` and Drizzle tables declare models and tables; a
model class's static methods (``User.findAll()``, ``Photo.findOneBy()``) read or write it."""

from __future__ import annotations

from pathlib import Path

from map_helpers import Repo, build

from groundkit.codemap.api import open_codemap
from groundkit.codemap.model import Provenance

MODELS = {
    "src/models/tutorial.ts": """
import { Model, Table, Column } from "sequelize-typescript";

@Table({
  tableName: "tutorials",
})
export default class Tutorial extends Model {
  @Column
  title?: string;
}
""",
    "src/models/photo.ts": """
import { BaseEntity, Entity, PrimaryGeneratedColumn } from "typeorm";

@Entity({ name: "photos" })
export class Photo extends BaseEntity {
  @PrimaryGeneratedColumn()
  id!: number;
}

@Entity()
export class Album extends BaseEntity {}
""",
    "src/models/user.js": """
const { Model, DataTypes } = require("sequelize");

class User extends Model {}
User.init({ name: DataTypes.STRING }, { sequelize, tableName: "app_users" });
module.exports = { User };
""",
    "src/db/schema.ts": """
import { pgTable, serial, text } from "drizzle-orm/pg-core";

export const posts = pgTable("posts", { id: serial("id"), body: text("body") });
""",
    "src/service.ts": """
import Tutorial from "./models/tutorial";
import { Album, Photo } from "./models/photo";
import { User } from "./models/user";

class Helper {
  static create(): Helper {
    return new Helper();
  }
}

export async function listTutorials() {
  return Tutorial.findAll({ where: {} });
}
export async function addTutorial(title: string) {
  return await Tutorial.create({ title });
}
export async function onePhoto(id: number) {
  return Photo.findOneBy({ id });
}
export async function dropAlbums() {
  await Album.delete({});
}
export async function renameUser(id: number) {
  await User.update({ name: "x" }, { where: { id } });
}
export function helper() {
  return Helper.create();
}
""",
}


def test_orm_models_map_to_the_table_their_declaration_names(repo: Repo) -> None:
    build(repo, MODELS)
    assert repo.pairs("maps_to") == {
        ("src/models/tutorial.Tutorial", "table:tutorials"),
        ("src/models/photo.Photo", "table:photos"),
        ("src/models/user.User", "table:app_users"),
        ("src/models/photo.Album", "table:album"),  # TypeORM's default (test_data_orm_defaults)
    }
    # a Drizzle table's variable stands for the table: an access to it is one to the table
    assert "table:posts" in {n.key.qualname for n in repo.map.nodes()}
    edge = repo.edge("maps_to", "src/models/tutorial.Tutorial", "table:tutorials")
    assert edge.provenance == Provenance.TABLE_DECLARED  # type: ignore[attr-defined]


def test_a_model_class_static_method_reads_or_writes_it_and_other_classes_do_not(
    repo: Repo,
) -> None:
    build(repo, MODELS)
    assert repo.pairs("reads") == {
        ("src/service.listTutorials", "src/models/tutorial.Tutorial"),
        ("src/service.onePhoto", "src/models/photo.Photo"),
    }
    # Album names no table (it has TypeORM's default): still a model
    assert repo.pairs("writes") == {
        ("src/service.addTutorial", "src/models/tutorial.Tutorial"),
        ("src/service.dropAlbums", "src/models/photo.Album"),
        ("src/service.renameUser", "src/models/user.User"),
    }
    edge = repo.edge("reads", "src/service.listTutorials", "src/models/tutorial.Tutorial")
    assert edge.provenance == Provenance.ORM_MANAGER  # type: ignore[attr-defined]
    assert "Tutorial.findAll" in edge.quote  # type: ignore[attr-defined]


REPOSITORIES = {
    "src/entity/User.ts": """
import { Entity, PrimaryGeneratedColumn } from "typeorm";

@Entity("users")
export class User {
  @PrimaryGeneratedColumn()
  id!: number;
}
""",
    "src/actions.ts": """
import { getManager, getRepository } from "typeorm";
import { User } from "./entity/User";

export async function listUsers() {
  const users = getManager().getRepository(User);
  return users.find();
}
export async function saveUser(body: object) {
  const repo = getRepository(User);
  const user = repo.create(body);
  await repo.save(user);
}
export async function countUsers() {
  return getRepository(User).count();
}
export async function byManager(id: number) {
  const manager = getManager();
  await manager.delete(User, id);
  return manager.findOneBy(User, { id });
}
export function notARepository(items: string[]) {
  const users = items;
  return users.find((x) => x === "a");
}
""",
    "src/users.service.ts": """
import { Injectable } from "@nestjs/common";
import { InjectRepository } from "@nestjs/typeorm";
import { Repository } from "typeorm";
import { User } from "./entity/User";

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User)
    private usersRepository: Repository<User>,
  ) {}

  findAll(): Promise<User[]> {
    return this.usersRepository.find();
  }

  async remove(id: number): Promise<void> {
    await this.usersRepository.delete(id);
  }
}
""",
}


def test_a_typeorm_repository_method_reads_or_writes_the_model_it_was_made_for(
    repo: Repo,
) -> None:
    build(repo, REPOSITORIES)
    assert repo.pairs("reads") == {
        ("src/actions.listUsers", "src/entity/User.User"),
        ("src/actions.countUsers", "src/entity/User.User"),
        ("src/actions.byManager", "src/entity/User.User"),
        ("src/users.service.UsersService.findAll", "src/entity/User.User"),
    }
    # repo.create(body) builds an entity without touching the database: no access
    assert repo.pairs("writes") == {
        ("src/actions.saveUser", "src/entity/User.User"),
        ("src/actions.byManager", "src/entity/User.User"),
        ("src/users.service.UsersService.remove", "src/entity/User.User"),
    }
    assert repo.pairs("maps_to") == {("src/entity/User.User", "table:users")}
    edge = repo.edge("writes", "src/actions.saveUser", "src/entity/User.User")
    assert edge.provenance == Provenance.ORM_REPOSITORY  # type: ignore[attr-defined]
    assert "repo.save(user)" in edge.quote  # type: ignore[attr-defined]
    edge = repo.edge("writes", "src/actions.byManager", "src/entity/User.User")
    assert edge.provenance == Provenance.ORM_ARGUMENT  # type: ignore[attr-defined]


def test_after_edits_the_orm_edges_equal_a_map_made_from_scratch(
    repo: Repo, tmp_path: Path
) -> None:
    build(repo, {**MODELS, **REPOSITORIES})
    edits = [
        # a service edited alone: the model files are not read again, their models are held
        {"src/service.ts": MODELS["src/service.ts"].replace("findAll", "findAndCountAll")},
        # a model's table renamed: its users are resolved again, their accesses held
        {"src/entity/User.ts": REPOSITORIES["src/entity/User.ts"].replace('"users"', '"people"')},
        # a repository user edited: its repository accesses are read again
        {"src/actions.ts": REPOSITORIES["src/actions.ts"].replace("users.find()", "users.count()")},
    ]
    for edit in edits:
        repo.write(edit)
        repo.build()
        repo.close()
        assert _data_edges(repo.index_dir) == _data_edges(_fresh(repo, tmp_path))


def _fresh(repo: Repo, tmp_path: Path) -> Path:
    index = tmp_path / f"fresh{len(list(tmp_path.glob('fresh*')))}"
    with open_codemap("repo", index_dir=index, create=True) as codemap:
        codemap.update(repo.root, workers=1)
    return index


def _data_edges(index: Path) -> set[tuple[str, str, str, str]]:
    with open_codemap("repo", index_dir=index) as codemap:
        return {
            (str(e.kind), e.source.qualname, e.target.qualname, str(e.provenance))
            for e in codemap.edges(["reads", "writes", "maps_to"])
        }


def test_a_drizzle_query_reads_or_writes_the_table_its_variable_stands_for(repo: Repo) -> None:
    build(
        repo,
        {
            "src/db/schema.ts": MODELS["src/db/schema.ts"],
            "src/posts.ts": """
import { eq } from "drizzle-orm";
import { db } from "./db";
import { posts } from "./db/schema";

export async function listPosts() {
  return db.select().from(posts).where(eq(posts.id, 1));
}
export async function addPost(body: string) {
  await db.insert(posts).values({ body });
}
export function notATable(xs: number[]) {
  return Array.from(xs);
}
""",
        },
    )
    assert repo.pairs("reads") == {("src/posts.listPosts", "table:posts")}
    assert repo.pairs("writes") == {("src/posts.addPost", "table:posts")}
