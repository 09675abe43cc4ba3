//! json_text's splices on texts a user writes: what `append` puts in, `remove` takes out, and
//! comments beside a member stay.

use super::*;

const PLAIN: Reads = Reads::JSON;
const JSONC: Reads = Reads {
    comments: true,
    bom: false,
};

fn root_list(body: &str, reads: Reads) -> List {
    list(&parse(body, reads).unwrap().unwrap()).unwrap()
}

#[test]
fn append_then_remove_gives_back_the_text_in_every_shape() {
    for body in [
        "{}",
        "{ }",
        "{\n}",
        "{\"a\": 1}",
        "{\n  \"a\": 1\n}",
        "{\r\n\t\"a\": 1,\r\n\t\"b\": [1e2, 99999999999999999999]\r\n}",
        "{\"a\": 1, /* c, d */ \"b\": 2 // e\n}",
    ] {
        let reads = if body.contains("/*") { JSONC } else { PLAIN };
        let style = style(body);
        let list = root_list(body, reads);
        for into in [Into::Flush, Into::Lined] {
            let added = append(body, &list, into, &style, |_| "\"z\": [true]".into());
            let after = parse(&added, reads).unwrap().unwrap();
            let (i, _) = prop(&after, "z").unwrap().unwrap();
            let after = self::list(&after).unwrap();
            let back = match (list.members.is_empty(), into) {
                (true, Into::Lined) => remove_only_lined(&added, &after),
                _ => remove(&added, &after, i),
            };
            assert_eq!(back, body, "{added}");
        }
    }
}

#[test]
fn removing_a_member_keeps_the_comments_beside_it_and_leaves_valid_json() {
    let body = "{\n  \"a\": 1, // one, two\n  \"b\": 2 /* b, */,\n  \"c\": 3\n}";
    let list = root_list(body, JSONC);
    let without_b = remove(body, &list, 1);
    assert!(without_b.contains("// one, two") && without_b.contains("/* b, */"));
    let doc = parse(&without_b, JSONC).unwrap().unwrap();
    assert!(prop(&doc, "b").unwrap().is_none());
    assert_eq!(value(&without_b, &doc), serde_json::json!({"a": 1, "c": 3}));
    let without_a = remove(body, &list, 0);
    let doc = parse(&without_a, JSONC).unwrap().unwrap();
    assert_eq!(value(&without_a, &doc), serde_json::json!({"b": 2, "c": 3}));
}

#[test]
fn what_the_cli_would_not_read_is_refused_with_why() {
    for (body, reads, why) in [
        ("{\"a\": 1,}", JSONC, "not JSON the CLI reads"),
        ("{// c\n}", PLAIN, "not JSON the CLI reads"),
        ("[1]", PLAIN, "not a JSON object"),
        ("{\"a\": \"\u{1}\"}", PLAIN, "not JSON the CLI reads"),
        ("{'a': 1}", JSONC, "not JSON the CLI reads"),
        ("{\"a\": 0x1}", JSONC, "not JSON the CLI reads"),
    ] {
        let err = parse(body, reads).err().unwrap_or_default();
        assert!(err.contains(why), "{body:?}: {err}");
    }
    assert!(split_bom("\u{feff}{}", PLAIN).is_err());
    assert_eq!(
        split_bom(
            "\u{feff}{}",
            Reads {
                comments: true,
                bom: true
            }
        )
        .unwrap(),
        ("\u{feff}", "{}")
    );
    let err = prop(&parse("{\"h\": 1, \"h\": 2}", PLAIN).unwrap().unwrap(), "h").unwrap_err();
    assert!(err.contains("appears twice"), "{err}");
}
