"""The planted secrets: at least 150 shapes a document may hold that must never reach a hosted
provider, and texts that must reach it unchanged.

Each case is ``(family, text planted, the secret in it)``. The families are those the fourth
fault round found leaking (41 of 69 reached a provider: docs/answer.md), and more: vendor keys
with no rule before, values named as secret in prose, commands, URLs, markup and config files,
and keys in disguise (zero-width and combining characters, variation selectors, fillers, tag
characters, fullwidth and Cyrillic look-alike letters). Add to it whenever a value gets through.
All values are made up.
"""

from __future__ import annotations

# Keys whose shapes redaction knows, to be disguised below.
GHP = "ghp_R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5Jd0Fs2Ga4E"
AKIA = "AKIAQ7Z2M4X8R6T1W3YP"
OPENAI = "sk-proj-Tq3Xv8Lr2Wn6Kp9Zs4Bd7Hm1Yc5"
GLPAT = "glpat-Xa7Kq2Lm9Vr4Tz8Wn3Pb"
SLACK = "xoxb-7712345678-Qw8Er4Ty2Ui6Op3As"
STRIPE = "sk_live_51Hq8Ws2Ex7Rc4Tv9Yb3Un6Im"
HF = "hf_Vb4Nm8Qw2Er6Ty9Ui3Op7As1Df5Gh"
GOOGLE = "AIzaSyD8Qw2Er6Ty9Ui3Op7As1Df5Gh4Jk0LzXc"
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ3b21iYXQtNzcifQ.Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0Ua"
NPM = "npm_Zx8Cv2Bn6Mq4Wr9Et3Yu7Io1Pa5Sd0Fg"

DISGUISED_KEYS = {
    "github": GHP,
    "aws": AKIA,
    "openai": OPENAI,
    "gitlab": GLPAT,
    "slack": SLACK,
    "stripe": STRIPE,
    "huggingface": HF,
    "google": GOOGLE,
    "jwt": JWT,
    "npm": NPM,
    "stripe restricted": "rk_live_51Hq8Ws2Ex7Rc4Tv9Yb3Un6Im",
    "telegram": "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
    "anthropic": "sk-ant-api03-Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5-AAA",
    "databricks": "dapi1234567890abcdef1234567890abcdef",
}

_CYRILLIC = str.maketrans(
    "aeopcxsyAEOPCXKHMTBI",
    "\u0430\u0435\u043e\u0440\u0441\u0445\u0455\u0443\u0410\u0415\u041e\u0420\u0421\u0425\u041a\u041d\u041c\u0422\u0412\u0406",
)


def _between(key: str, mark: str) -> str:
    return mark.join(key)


def _fullwidth(key: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in key)


def _tags(key: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in key)


DISGUISES = {
    "a zero-width space in the prefix": lambda k: k[:2] + "\u200b" + k[2:],
    "zero-width spaces in the body": lambda k: k[:6] + "\u200b" + k[6:12] + "\u200c" + k[12:],
    "a soft hyphen and a word joiner": lambda k: k[:4] + "\u00ad" + k[4:9] + "\u2060" + k[9:],
    "U+034F after each character": lambda k: _between(k, "\u034f"),
    "U+FE0F after each character": lambda k: _between(k, "\ufe0f"),
    "U+E0100 after each character": lambda k: _between(k, "\U000e0100"),
    "U+3164 Hangul filler inside": lambda k: _between(k, "\u3164"),
    "U+FFA0 halfwidth filler inside": lambda k: k[:5] + "\uffa0" + k[5:],
    "U+115F choseong filler inside": lambda k: k[:5] + "\u115f" + k[5:],
    "U+2800 braille blank inside": lambda k: _between(k, "\u2800"),
    "U+17B4 Khmer vowel inside": lambda k: k[:7] + "\u17b4" + k[7:],
    "U+0300 combining grave on each": lambda k: _between(k, "\u0300"),
    "written in tag characters": _tags,
    "fullwidth letters": _fullwidth,
    "Cyrillic look-alike letters": lambda k: k.translate(_CYRILLIC),
}

PLAIN: list[tuple[str, str, str]] = [
    # -- the shapes the fault round found leaking, as it planted them
    ("basic auth header", "Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
    ("basic auth, lower case", "authorization: basic dXNlcjpodW50ZXIy", "dXNlcjpodW50ZXIy"),
    ("short password", "password=hunter2", "hunter2"),
    ("quoted passphrase", 'passphrase: "correct horse battery staple"', "horse battery staple"),
    ("password, fullwidth equals", "password\uff1dTr0ub4dor3", "Tr0ub4dor3"),
    ("card grouped with no-break spaces", "4111\u00a01111\u00a01111\u00a01111", "4111111111111111"),
    ("card split over two lines", "4012 8888\n8888 1881", "40128888"),
    ("card, narrow no-break spaces", "5555\u202f5555\u202f5555\u202f4444", "5555555555554444"),
    (
        "yaml-folded secret",
        "db:\n  password: >-\n    Zq8Wv2Lr6Tn4\n    Kp9Xs3Bd7Hm1\n",
        "Kp9Xs3Bd7Hm1",
    ),
    (
        "yaml literal block secret",
        "token: |\n  Rt5Yh8Uj2Ik6Ol9P\n",
        "Rt5Yh8Uj2Ik6Ol9P",
    ),
    (
        "openssh key without its END line",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
        "AAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACBq\n",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
    ),
    (
        "rsa key block",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Qw2Er6Ty9Ui3Op7As1Df5Gh\n"
        "-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEAx7Qw2Er6Ty9Ui3Op7As1Df5Gh",
    ),
    # -- vendor keys with no rule before
    ("stripe restricted key", "rk_live_51Hq8Ws2Ex7Rc4Tv9Yb3Un6Im", "51Hq8Ws2Ex7Rc4Tv9Yb3Un6Im"),
    ("stripe test key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"),
    ("stripe webhook secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "MfKQ9r8GKYqrTwjUPD8ILPZI"),
    (
        "telegram bot token",
        "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
        "AAHdqTcvCH1vGWJxfSeofSAs",
    ),
    ("mailgun key", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0", "3ax6xnjp29jd6fds4gc373sg"),
    ("shopify token", "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", "a1b2c3d4e5f6a7b8c9d0e1f2"),
    ("databricks token", "dapi1234567890abcdef1234567890abcdef", "1234567890abcdef12345678"),
    ("vault token, old", "s.Hjk8AbCdEfGhIjKlMnOpQrSt", "Hjk8AbCdEfGhIjKlMnOpQrSt"),
    (
        "vault token, hvs",
        "hvs.CAESIJlWh2Xr0aBcDeFgHiJkLmNoPqRsTuVwXyZ0",
        "CAESIJlWh2Xr0aBcDeFgHiJk",
    ),
    ("google client secret", "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", "1a2B3c4D5e6F7g8H9i0J1k2L"),
    (
        "discord bot token",
        "MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789",
        "abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    ("new relic user key", "NRAK-ABCDEFGHIJKLMNOPQRSTUVWXYZ1", "ABCDEFGHIJKLMNOPQRSTUVWXYZ1"),
    (
        "azure sas signature",
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&se=2030-01-01&sig=Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5%3D",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "sendgrid key",
        "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",
        "Tu8vWx1yZa4bCd7eFg0hIj3kLm6nOp9qRs2tUv5wXy8",
    ),
    (
        "anthropic key",
        "sk-ant-api03-Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0Ua-AAA",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0Ua",
    ),
    (
        "pypi token",
        "pypi-AgEIcHlwaS5vcmcCJDU3Y2Q4ZTFhLTk0ZjQtNDg3Yi1hNzIyLWJkZTAyNGY2MjQ5YwACKlsz",
        "AgEIcHlwaS5vcmcCJDU3Y2Q4ZTFh",
    ),
    ("twilio key", "SK0123456789abcdef0123456789abcdef", "0123456789abcdef01234567"),
    ("gitlab runner token", "glrt-Xa7Kq2Lm9Vr4Tz8Wn3Pb", "Xa7Kq2Lm9Vr4Tz8Wn3Pb"),
    ("github app token", "ghs_R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5Jd0Fs2Ga4E", "R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5"),
    (
        "github refresh token",
        "ghr_R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5Jd0Fs2Ga4E",
        "R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5",
    ),
    (
        "github fine-grained pat",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRS",
        "abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    ("slack user token", "xoxp-7712345678-7712345678-Qw8Er4Ty2Ui6Op3As", "Qw8Er4Ty2Ui6Op3As"),
    (
        "slack webhook",
        "https://hooks.slack.com/services/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k",
        "Qw8Er4Ty2Ui6Op3AsDf5Gh7Jk",
    ),
    (
        "age secret key",
        "AGE-SECRET-KEY-1" + "QWERTYUIOPASDFGHJKLZXCVBNM0123456789QWERTYUIOPASDFGHJKLZXC",
        "QWERTYUIOPASDFGHJKLZXCVBNM0123456789",
    ),
    ("heroku key named", "HEROKU_API_KEY=01234567-89ab-cdef-0123-456789abcdef", "89ab-cdef-0123"),
    (
        "aws secret access key",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCY",
    ),
    (
        "azure storage key",
        "DefaultEndpointsProtocol=https;AccountName=zoo;AccountKey=Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0Ua==",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0Ua",
    ),
    # -- values named as secret: config files
    ("env DB_PASS", "DB_PASS=Zebra-42-wombat", "Zebra-42-wombat"),
    ("env SMTP_PASS", "SMTP_PASS=mailpass77", "mailpass77"),
    ("yaml pw", "pw: ch33se-plate", "ch33se-plate"),
    ("env PGPASSWORD", "PGPASSWORD=p0stgres!", "p0stgres"),
    ("env MYSQL_PWD", "export MYSQL_PWD='my-sql-99'", "my-sql-99"),
    (
        "docker auth",
        '{"auths": {"registry.example.org": {"auth": "d29tYmF0OnMzY3IzdA=="}}}',
        "d29tYmF0OnMzY3IzdA",
    ),
    ("npmrc _auth", "_auth=d29tYmF0OnMzY3IzdA==", "d29tYmF0OnMzY3IzdA"),
    ("npmrc _authToken", "//registry.npmjs.org/:_authToken=Zq8Wv2Lr6Tn4Kp9X", "Zq8Wv2Lr6Tn4Kp9X"),
    ("jwk k", '{"kty": "oct", "k": "GawgguFyGrWKav7AX4VKUg0000dBq9Xw"}', "GawgguFyGrWKav7AX4VKUg"),
    (
        "jwk d",
        '{"kty": "EC", "d": "870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE"}',
        "870MB6gfuTJ4HtUnUvYMyJpr5",
    ),
    ("json password", '{"user": "zoo", "password": "k33p3r-of-w0mbats"}', "k33p3r-of-w0mbats"),
    ("toml client secret", 'client_secret = "Zx9wVu8tSr7qPo6n"', "Zx9wVu8tSr7qPo6n"),
    ("ini password", "[db]\npassword = Marsupial#88", "Marsupial#88"),
    ("camel case", "smtpPassword: 'Hop2itKanga'", "Hop2itKanga"),
    ("properties", "spring.datasource.password=Spr1ngDS!", "Spr1ngDS"),
    ("api key assignment", "api_key=0123456789abcdef0123456789abcdef", "0123456789abcdef01234567"),
    ("secret key", "SECRET_KEY = 'django-insecure-7x#q2l!v9w'", "django-insecure-7x#q2l"),
    ("session cookie", "Cookie: sessionid=Qk3Lm9Xr2Vt7Wz4Np8", "Qk3Lm9Xr2Vt7Wz4Np8"),
    (
        "connection string password",
        "Server=db;Database=zoo;User Id=sa;Password=Sq1-Srv-77;",
        "Sq1-Srv-77",
    ),
    ("k8s secret data", "data:\n  password: UzNjcjN0LXczbWJhdA==\n", "UzNjcjN0LXczbWJhdA"),
    ("htpasswd-ish", "credentials: admin:Adm1nPa55", "Adm1nPa55"),
    # -- prose
    ("prose root password", "The root password is hunter2.", "hunter2"),
    (
        "prose api key 32 hex",
        "Our API key is 9f86d081884c7d659a2feaa0c55ad015 for staging.",
        "9f86d081884c7d659a2feaa0",
    ),
    (
        "prose uuid key",
        "The license key is 550e8400-e29b-41d4-a716-446655440000.",
        "e29b-41d4-a716",
    ),
    ("prose token was", "my token was Zq8Wv2Lr6Tn4Kp9X until March", "Zq8Wv2Lr6Tn4Kp9X"),
    ("prose password quoted", "The wifi password is \u201cKoala Bear 42\u201d.", "Koala Bear 42"),
    ("prose pin-ish", "the admin password: Adm1n!2024", "Adm1n!2024"),
    ("totp seed", "TOTP seed: JBSWY3DPEHPK3PXP", "JBSWY3DPEHPK3PXP"),
    (
        "otpauth uri",
        "otpauth://totp/Zoo:keeper?secret=JBSWY3DPEHPK3PXQ&issuer=Zoo",
        "JBSWY3DPEHPK3PXQ",
    ),
    ("recovery code", "recovery code: 7f3k-9q2m-4x8z", "7f3k-9q2m-4x8z"),
    # -- commands
    ("mysql -p", "mysql -u root -pS3cretRoot zoo", "S3cretRoot"),
    ("mysqldump -p", "mysqldump -uadmin -pDump2024! zoo > zoo.sql", "Dump2024"),
    ("mysql --password", "mysql --password=Passw0rdMy zoo", "Passw0rdMy"),
    ("curl -u", "curl -u keeper:Wombat99 https://api.example.org/feed", "Wombat99"),
    ("curl --user", "curl --user 'keeper:Koala-77' https://api.example.org/", "Koala-77"),
    ("sshpass -p", "sshpass -p 'Ssh-Pass-5' ssh keeper@zoo", "Ssh-Pass-5"),
    ("docker login", "docker login -u zoo --password Dock3rPw registry.example.org", "Dock3rPw"),
    (
        "wget http password",
        "wget --http-user=zoo --http-password=Wg3tPw https://x.example/f",
        "Wg3tPw",
    ),
    ("psql url", "psql postgresql://zoo:PgUrlPw9@db.example.org/zoo", "PgUrlPw9"),
    (
        "git clone token",
        "git clone https://oauth2:glpat-Xa7Kq2Lm9Vr4Tz8Wn3Pb@gitlab.example.org/z.git",
        "Xa7Kq2Lm9Vr4Tz8Wn3Pb",
    ),
    # -- markup and URLs
    ("html password value", '<input type="password" name="pw" value="Html-Pw-33">', "Html-Pw-33"),
    ("html value before type", '<input value="Html-Pw-44" type="password">', "Html-Pw-44"),
    (
        "html hidden token",
        '<input type="hidden" name="csrf_token" value="Cs8Rf2Tk6Ab9">',
        "Cs8Rf2Tk6Ab9",
    ),
    (
        "url access token",
        "https://api.example.org/v1?access_token=Ya29a0AfH6SMBx&x=1",
        "Ya29a0AfH6SMBx",
    ),
    ("url api key", "https://maps.example.org/api?key=Qw8Er4Ty2Ui6Op3As", "Qw8Er4Ty2Ui6Op3As"),
    (
        "s3 presigned",
        "https://b.s3.amazonaws.com/k?X-Amz-Signature=9f86d081884c7d659a2feaa0c55ad015b",
        "9f86d081884c7d659a2feaa0c55ad015",
    ),
    ("url with password", "https://admin:hunter22@db.example.org/x", "hunter22"),
    ("bearer header", "Authorization: Bearer Zq8Wv2Lr6Tn4Kp9XsBd7", "Zq8Wv2Lr6Tn4Kp9XsBd7"),
    # -- cards and personal numbers
    ("card, plain", "4111111111111111", "4111111111111111"),
    ("card, dashed", "5500-0000-0000-0004", "0000-0000-0004"),
    ("ssn", "078-05-1120", "078-05-1120"),
    ("email", "keeper@example.org", "keeper@example.org"),
    (
        "digitalocean token",
        "dop_v1_a1b2c3d4e5f6a7b8a1b2c3d4e5f6a7b8a1b2c3d4e5f6a7b8a1b2c3d4e5f6a7b8",
        "a1b2c3d4e5f6a7b8a1b2c3d4",
    ),
    (
        "doppler token",
        "dp.pt.Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "dynatrace token",
        "dt0c01.ABCDEFGHIJKLMNOPQRSTUVWX.Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0U",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8",
    ),
    (
        "grafana cloud token",
        "glc_eyJvIjoiMTIzNDU2IiwibiI6InN0YWNrLTEyMzQ1Ni1obS1yZWFkIiwiayI6Ilhx",
        "eyJvIjoiMTIzNDU2IiwibiI6",
    ),
    (
        "grafana service account",
        "glsa_Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0Ua_1a2b3c4d",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "linear api key",
        "lin_api_Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6K",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "planetscale password",
        "pscale_pw_Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6K",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "postman key",
        "PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01",
        "0123456789abcdef01234567",
    ),
    ("pulumi token", "pul-0123456789abcdef0123456789abcdef01234567", "0123456789abcdef01234567"),
    (
        "rubygems key",
        "rubygems_0123456789abcdef0123456789abcdef0123456789abcdef",
        "0123456789abcdef01234567",
    ),
    (
        "sendinblue key",
        "xkeysib-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef-Xq9Lr2Wn6Kp3Zs4B",
        "0123456789abcdef01234567",
    ),
    (
        "shippo token",
        "shippo_live_0123456789abcdef0123456789abcdef01234567",
        "0123456789abcdef01234567",
    ),
    ("square secret", "sq0csp-Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2W", "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5"),
    (
        "typeform token",
        "tfp_Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6K_1a2b3c4d5e6f7",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "sentry token",
        "sntrys_eyJpYXQiOjE2ODQ4MjM4NzYuNzc1NTQ0LCJ1cmwiOiJodHRwczovL3NlbnRyeS5pbyJ9"
        "_Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6K",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "slack app token",
        "xapp-1-A0123ABCDEF-1234567890123-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "0123456789abcdef01234567",
    ),
    (
        "sourcegraph token",
        "sgp_0123456789abcdef0123456789abcdef01234567",
        "0123456789abcdef01234567",
    ),
    ("supabase token", "sbp_0123456789abcdef0123456789abcdef01234567", "0123456789abcdef01234567"),
    ("fly.io token", "fo1_Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6K", "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5"),
    ("alibaba key id", "LTAI5tXq9Lr2Wn6Kp3Zs4Bd7", "5tXq9Lr2Wn6Kp3Zs4Bd7"),
    (
        "artifactory key",
        "AKCp8Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "huggingface org token",
        "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",
        "XqLrWnKpZsBdHmYcTvEjUaQq",
    ),
    (
        "easypost key",
        "EZAKXq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
        "Xq9Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    ("flutterwave key", "FLWSECK-0123456789abcdef0123456789abcdef-X", "0123456789abcdef01234567"),
    (
        "mapbox secret token",
        "sk.eyJ1IjoienVvIiwiYSI6ImNrMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3AifQ.Xq9Lr2Wn6Kp3Zs4Bd7Hm1Y",
        "eyJ1IjoienVvIiwiYSI6ImNrMTIz",
    ),
    (
        "azure ad client secret",
        "client_secret: Xq98Q~Lr2Wn6Kp3Zs4Bd7Hm1Yc5Tv8Ej0UaQq9L",
        "Lr2Wn6Kp3Zs4Bd7Hm1Yc5",
    ),
    (
        "gcp service account key",
        '{"type": "service_account", "private_key_id": "0123456789abcdef0123456789abcdef01234567",'
        ' "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n'
        '-----END PRIVATE KEY-----\\n"}',
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    ),
    (
        "github token header",
        "Authorization: token ghp_R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5Jd0Fs2Ga4E",
        "R8x2Lq9Vt4Zk7Wm3Np6Yc1Hb5",
    ),
    ("api key header", "X-API-Key: Qw8Er4Ty2Ui6Op3AsDf5Gh7J", "Qw8Er4Ty2Ui6Op3AsDf5Gh7J"),
    ("proxy authorization", "Proxy-Authorization: Basic cHJveHk6czNjcjN0", "cHJveHk6czNjcjN0"),
    ("xml password element", "<password>Xml-S3cret-9</password>", "Xml-S3cret-9"),
    ("java properties colon", "db.password: Pr0ps!Secret", "Pr0ps!Secret"),
    ("terraform variable", 'admin_password = "Tf-Adm1n-Pw"', "Tf-Adm1n-Pw"),
    ("k8s stringData", "stringData:\n  password: Kub3-Str1ng\n", "Kub3-Str1ng"),
    ("ansible become pass", "ansible_become_pass: Ans1ble-Pw", "Ans1ble-Pw"),
    ("pgpass line", "db.example.org:5432:zoo:keeper:Pgp4ss-Line", "Pgp4ss-Line"),
    ("jdbc url password", "jdbc:mysql://db/zoo?user=root&password=Jdbc-Pw-77", "Jdbc-Pw-77"),
    ("odbc pwd", "Driver={SQL Server};Server=db;Uid=sa;PWD=0dbc-Pw-5;", "0dbc-Pw-5"),
    ("redis requirepass", "requirepass R3dis-Requ1re", "R3dis-Requ1re"),
    ("redis-cli -a", "redis-cli -h cache -a R3dis-Cl1-Pw ping", "R3dis-Cl1-Pw"),
    (
        "mongodb srv url",
        "mongodb+srv://keeper:M0ngo-Srv-Pw@cluster0.example.net/zoo",
        "M0ngo-Srv-Pw",
    ),
    ("amqp url", "amqp://guest:Amqp-S3cret@rabbit:5672/", "Amqp-S3cret"),
    ("smtp url", "smtp://mailer:Smtp-Url-Pw9@mail.example.org:587", "Smtp-Url-Pw9"),
    ("github token env", "GITHUB_TOKEN=Gh-T0ken-Value-99", "Gh-T0ken-Value-99"),
    ("windows set password", "set DB_PASSWORD=W1nd0ws-Pw", "W1nd0ws-Pw"),
    (
        "powershell securestring",
        'ConvertTo-SecureString "P0sh-Pl4in!" -AsPlainText -Force',
        "P0sh-Pl4in",
    ),
    ("psql conninfo", 'psql "host=db user=zoo password=C0nninfo-Pw dbname=zoo"', "C0nninfo-Pw"),
    ("cli --token", "deploy --token=Cl1Tok3nValue99 --env prod", "Cl1Tok3nValue99"),
    ("cli --api-key", "tool --api-key Ap1Key-Value-42 run", "Ap1Key-Value-42"),
    ("json escaped password", '"{\\"password\\":\\"Esc4ped-Pw\\"}"', "Esc4ped-Pw"),
    ("password on the next line", "password:\n  N3xt-L1ne-Pw", "N3xt-L1ne-Pw"),
    ("password, zero-width in the name", "pass\u200bword=Zw-N4me-Pw", "Zw-N4me-Pw"),
    (
        "password, fullwidth name",
        "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44=Fw-N4me-Pw",
        "Fw-N4me-Pw",
    ),
    ("password, Cyrillic o in the name", "passw\u043erd=Cy-N4me-Pw", "Cy-N4me-Pw"),
    (
        "api key, tag characters",
        "\U000e0061\U000e0070\U000e0069\U000e005f\U000e006b\U000e0065\U000e0079\U000e003d\U000e0054\U000e0034\U000e0067\U000e002d\U000e0048\U000e0069\U000e0064\U000e0064\U000e0065\U000e006e\U000e002d\U000e004b\U000e0033\U000e0079",
        "T4g-Hidden-K3y",
    ),
    ("card, amex grouped", "3782 822463 10005", "378282246310005"),
    ("card, dots", "4111.1111.1111.1111", "4111111111111111"),
    (
        "card, fullwidth digits",
        "\uff14\uff11\uff11\uff11\uff14\uff11\uff11\uff11\uff14\uff11\uff11\uff11\uff14\uff11\uff11\uff11",
        "4111111111111111",
    ),
    ("card, zero-width spaces", "4111\u200b1111\u200b1111\u200b1111", "4111111111111111"),
    ("prose passcode", "The door passcode is 4821-9937.", "4821-9937"),
    ("prose secret was", "The webhook secret was Wh00k-S3cret.", "Wh00k-S3cret"),
]


def cases() -> list[tuple[str, str, str]]:
    """Every planted case: the plain shapes, then each disguised key in each disguise."""
    out = list(PLAIN)
    for kind, key in DISGUISED_KEYS.items():
        for how, disguise in DISGUISES.items():
            out.append((f"{kind} key, {how}", disguise(key), key))
        out.append((f"{kind} key, as it is", key, key))
    return out


# What must reach the model as written: ordinary prose and code that merely mentions secrets.
NOT_SECRETS = [
    "The password must be at least 12 characters long.",
    "Reset your password from the account settings page.",
    "def check_password(password: str) -> bool:",
    "api_key = os.environ['API_KEY']",
    "token = tokenizer.encode(text)",
    "secret = get_secret(name)",
    "The author: Jane Doe, 2021.",
    "Use a compass: north is up.",
    "The passport field is optional.",
    "password_min_length = 12",
    "export DB_PASS=${DB_PASS}",
    "password: <your password here>",
    "The session token expires after 30 minutes.",
    "Our API key rotation policy is in the handbook.",
    "Call get_token() to refresh it.",
    "if not user.password_hash: raise ValueError",
    "risk-assessment-overview-of-the-plan",
    "The wombat digs long burrows with its strong claws.",
    "version 1.2.3 released on 2021-03-04",
    "git commit -m 'fix login'",
    "mysql -u root -h localhost zoo",
    "curl -X POST https://api.example.org/v1/items",
    "See https://example.org/docs?page=2&sort=asc",
    '<input type="text" name="username" value="guest">',
    "The token bucket algorithm refills at a fixed rate.",
    "Password reset links are valid for a day.",
    "Basic training starts on Monday.",
    "max_tokens: 1024",
    "auth: required",
    "The OTP is sent by text message.",
    "token_type = 'bearer'",
    "password = None",
    "passwd: false",
    "PASSWORD_FILE=/run/secrets/db",
    "Keys: 12, values: 40",
    "The secret is patience.",
    "order number 1234567812345678 shipped",
    "room 12-34 on floor 3",
    "for token in tokens:\n    print(token)",
    "self.password = password",
    "const apiKey = process.env.API_KEY;",
    "ключ доступа хранится в сейфе",  # Russian prose: folding must not make it a key
    "パスワードは金庫にあります",
    "Der Schlüssel liegt im Tresor.",
    # From real documentation sets (requests, httpx, starlette, flask), once redacted:
    "pairs in the URL after a question mark, e.g. ``httpbin.org/get?key=val``.",
    "To access parameters submitted in the URL (``?key=value``), use",
    "Werkzeug logs basic request/response info",
    ".. _OAuth: https://oauth.net/",
    "https://github.com/encode/starlette/blob/621abc747a6604825190b93467918a0ec6456a24/tests/x.py",
    "r = requests.get('https://api.github.com/repos/psf/requests/issues/482/comments')",
    "File /Users/tomchristie/GitHub/encode/httpcore/httpx/models.py, line 3",
    "https://cloud.google.com/appengine/docs/standard/python3/building-app",
    "the licence: https://github.com/encode/starlette/blob/master/LICENSE.md",
]
