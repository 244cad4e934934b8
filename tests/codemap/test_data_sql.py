"""Raw SQL on the chain to the database: the tables named in SQL text handed to ``execute``,
``text()``, ``query`` or a ``sql`` tagged template, read by a SQL parser; read or write by the
statement's kind; text that does not parse, or names a table at run time, counted and no edge."""

from __future__ import annotations

import json
import logging

import pytest
from map_helpers import Repo, build

from groundkit.codemap.model import Provenance

PY_SQL = """
import sqlite3

from sqlalchemy import text


LATEST = "SELECT * FROM post ORDER BY created DESC LIMIT 10"
SCHEMA = "CREATE TABLE IF NOT EXISTS tags (name TEXT)"
SCHEMA += ";"


def get_db():
    return sqlite3.connect("app.db")


def latest(db):
    return db.execute(LATEST).fetchall()


def shadowed(db, LATEST):
    return db.execute(LATEST)


def report(conn):
    import pandas as pd

    return pd.read_sql("SELECT author_id, count(*) FROM post GROUP BY author_id", conn)


def init(db):
    db.execute(SCHEMA)


def index(db):
    return db.execute(
        "SELECT p.id, title, username"
        " FROM post p JOIN user u ON p.author_id = u.id"
    ).fetchall()


def create(db, title):
    db.execute("INSERT INTO post (title) VALUES (?)", (title,))


def archive(cursor, days):
    cursor.execute(f"DELETE FROM post WHERE age > {days}")
    cursor.execute("WITH old AS (SELECT id FROM post) INSERT INTO archive SELECT * FROM old")


def by_name(session, name):
    return session.execute(text("SELECT * FROM users WHERE name = :name"), {"name": name})


def psycopg_style(cursor, user_id):
    cursor.execute("UPDATE users SET seen = now() WHERE id = %(id)s", {"id": user_id})
    cursor.execute("SELECT name FROM teams WHERE id = ?1 OR parent = ?1", (user_id,))


def not_sql(executor, task):
    executor.execute("run the nightly task")
    executor.execute(task)


def broken(db, table):
    db.execute("INSERT INTO post SET ?", {"title": "x"})
    db.execute(f"SELECT * FROM {table}")
"""


def test_sql_text_in_python_is_a_read_or_write_of_each_table_by_statement_kind(
    repo: Repo,
) -> None:
    build(repo, {"app/db.py": PY_SQL})
    assert repo.pairs("reads") == {
        ("app.db.latest", "table:post"),
        ("app.db.report", "table:post"),
        ("app.db.index", "table:post"),
        ("app.db.index", "table:user"),
        ("app.db.archive", "table:post"),
        ("app.db.by_name", "table:users"),
        ("app.db.psycopg_style", "table:teams"),
    }
    assert repo.pairs("writes") == {
        ("app.db.create", "table:post"),
        ("app.db.archive", "table:post"),
        ("app.db.archive", "table:archive"),
        ("app.db.psycopg_style", "table:users"),
    }
    edge = repo.edge("reads", "app.db.index", "table:user")
    assert edge.provenance == Provenance.SQL_TEXT  # type: ignore[attr-defined]
    # a statement split over lines is cited on the line that names the table
    assert "JOIN user u" in edge.quote  # type: ignore[attr-defined]


def test_sql_that_does_not_parse_or_names_its_table_at_run_time_is_counted_not_drawn(
    repo: Repo,
) -> None:
    build(repo, {"app/db.py": PY_SQL})
    assert not {s for s, _ in repo.pairs("reads") | repo.pairs("writes")} & {"app.db.broken"}
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted["SQL text that does not parse"] == 1
    assert counted["SQL text naming a table at run time"] == 1


def test_sql_the_parser_reads_only_as_a_command_is_counted_without_a_warning_on_stderr(
    repo: Repo, caplog: pytest.LogCaptureFixture
) -> None:
    # SQLite's own syntax (a virtual table) parses as sqlglot's fallback "Command", which it
    # logs as a warning: grk map printed it to the terminal of whoever mapped such a repository.
    source = 'def make(db):\n    db.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")\n'
    with caplog.at_level(logging.WARNING):
        build(repo, {"app/db.py": source})
    assert [r.getMessage() for r in caplog.records if r.name.startswith("sqlglot")] == []
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted["SQL text that does not parse"] == 1


def test_sql_nested_deeper_than_the_parser_reaches_is_counted_and_the_map_goes_on(
    repo: Repo,
) -> None:
    deep = "SELECT * FROM t WHERE " + "(" * 3000 + "a = 1" + ")" * 3000
    source = f"""
def deep(cur):
    cur.execute({deep!r})

def add(cur):
    cur.execute("INSERT INTO users (name) VALUES (?)", ("x",))
"""
    build(repo, {"app/db.py": source})
    assert repo.pairs("writes") == {("app.db.add", "table:users")}
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted["SQL text nested too deeply to read"] == 1


def test_sql_text_in_typescript_query_calls_and_sql_tagged_templates_is_read(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "src/repo.ts": """
import mysql from "mysql2";
import { Pool } from "pg";
import { sql } from "@vercel/postgres";

const connection = mysql.createConnection({});
const pool = new Pool();
const TABLE_FREE = "SELECT 1";

export function byId(id: number) {
  connection.query("SELECT * FROM tutorials WHERE id = ?", [id], () => {});
}
export function byTitle(title: string) {
  return connection.query(`SELECT * FROM tutorials WHERE title LIKE '%${title}%'`);
}
export async function remove(id: number) {
  await sql`DELETE FROM tutorials WHERE id = ${id}`;
}
export function mysqlSet(row: object) {
  connection.query("INSERT INTO tutorials SET ?", row);
}
export function pgSet(row: object) {
  pool.query("INSERT INTO tutorials SET ?", row);
}
export function built(cond: string) {
  let q = "SELECT * FROM tutorials";
  q += " WHERE " + cond;
  connection.query(q);
  connection.query(TABLE_FREE);
}
""",
        },
    )
    assert repo.pairs("reads") == {
        ("src/repo.byId", "table:tutorials"),
        ("src/repo.byTitle", "table:tutorials"),
    }
    # mysql2 documents SET ? given an object as key = value pairs; pg has no such form
    assert repo.pairs("writes") == {
        ("src/repo.remove", "table:tutorials"),
        ("src/repo.mysqlSet", "table:tutorials"),
    }
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted == {"SQL text that does not parse": 1}


def test_mysql_set_marker_through_a_module_exporting_the_pool_is_a_write(repo: Repo) -> None:
    build(
        repo,
        {
            "app/models/db.js": """
const mysql = require("mysql");
module.exports = mysql.createPool({});
""",
            "app/models/tutorial.model.js": """
const sql = require("./db.js");
exports.create = (row, done) => sql.query("INSERT INTO tutorials SET ?", row, done);
exports.update = (id, row, done) =>
  sql.query("UPDATE tutorials SET ? WHERE id = ?", [row, id], done);
""",
        },
    )
    assert repo.pairs("writes") == {
        ("app/models/tutorial.model.exports.create", "table:tutorials"),
        ("app/models/tutorial.model.exports.update", "table:tutorials"),
    }


FLASK_SCHEMA = {
    "blog/__init__.py": """
from flask import Flask


def create_app():
    return Flask(__name__, instance_relative_config=True)
""",
    "blog/schema.sql": """
DROP TABLE IF EXISTS author;
CREATE TABLE author (id INTEGER PRIMARY KEY);
CREATE TABLE entry (id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES author (id));
""",
    "blog/db.py": """
import sqlite3

from flask import current_app


def init_db():
    db = sqlite3.connect("x")
    with current_app.open_resource("schema.sql") as f:
        db.executescript(f.read().decode("utf8"))


def missing():
    db = sqlite3.connect("x")
    with current_app.open_resource("gone.sql") as f:
        db.executescript(f.read().decode("utf8"))
""",
    "tools/seed.py": """
import sqlite3

from flask import current_app


def seed():
    with current_app.open_resource("schema.sql") as f:
        sqlite3.connect("x").executescript(f.read())
""",
}


def test_sql_of_a_resource_file_of_the_app_is_read_at_the_call(repo: Repo) -> None:
    build(repo, FLASK_SCHEMA)
    assert repo.pairs("writes") == {
        ("blog.db.init_db", "table:author"),
        ("blog.db.init_db", "table:entry"),
    }
    edge = repo.edge("writes", "blog.db.init_db", "table:entry")
    assert edge.provenance == Provenance.SQL_TEXT  # type: ignore[attr-defined]
    assert "executescript" in edge.quote  # type: ignore[attr-defined]
    counted = json.loads(repo.map.store.manifest()["data_unresolved"])
    assert counted["open_resource: no such file in the repository, or too large"] == 1
    assert counted["open_resource: the app's root folder is not known"] == 1  # tools/seed.py


def test_a_constraint_or_index_dropped_by_name_is_not_read_as_a_table(repo: Repo) -> None:
    # sqlglot parses the name after DROP CONSTRAINT / DROP INDEX as a Table node
    source = """
def upgrade(op):
    op.execute("ALTER TABLE incident_type DROP CONSTRAINT IF EXISTS incident_type_fkey")
    op.execute("DROP INDEX ix_user_email")
    op.execute("DROP TABLE old_audit")
"""
    build(repo, {"app/migration.py": source})
    assert repo.pairs("reads") == set()
    assert repo.pairs("writes") == {
        ("app.migration.upgrade", "table:incident_type"),
        ("app.migration.upgrade", "table:old_audit"),
    }
