//! Flag parsing, presets and URL packing (pure Rust, no GPU).

use compaction_playground::flags::{self, FlagReader, FlagsFormat};
use compaction_playground::Error;

#[test]
fn list_accepts_commas_and_whitespace() {
    assert_eq!(flags::parse_list("1,0,0,1").unwrap(), vec![1, 0, 0, 1]);
    assert_eq!(
        flags::parse_list(" 1 0\n2,\t4294967295 ").unwrap(),
        vec![1, 0, 2, u32::MAX]
    );
    assert_eq!(flags::parse_list("").unwrap(), Vec::<u32>::new());
}

#[test]
fn list_errors_name_the_token() {
    let err = flags::parse_list("1, 0, x, 1").unwrap_err().to_string();
    assert!(err.contains("token 3") && err.contains("`x`"), "{err}");
    let err = flags::parse_list("1 4294967296").unwrap_err().to_string();
    assert!(err.contains("token 2") && err.contains("larger"), "{err}");
    let err = flags::parse_list("-1").unwrap_err().to_string();
    assert!(err.contains("token 1"), "{err}");
}

#[test]
fn a_byte_order_mark_opening_the_text_is_not_a_flag() {
    assert_eq!(flags::parse_list("\u{feff}1,0,1").unwrap(), vec![1, 0, 1]);
    assert_eq!(flags::parse_bits("\u{feff}101").unwrap(), vec![1, 0, 1]);
    // Split across pieces, as a file is read.
    let mut reader = FlagReader::new(FlagsFormat::List, 100);
    reader.push(&[0xef, 0xbb]).unwrap();
    reader.push(&[0xbf, b'1', b' ', b'0']).unwrap();
    assert_eq!(reader.finish().unwrap(), vec![1, 0]);
    // Anywhere else it is a bad token, shown escaped.
    let err = flags::parse_list("1 \u{feff}0").unwrap_err().to_string();
    assert!(err.contains("token 2"), "{err}");
}

#[test]
fn bits_ignore_whitespace_and_reject_other_characters() {
    assert_eq!(
        flags::parse_bits("1001 1010\n01").unwrap(),
        vec![1, 0, 0, 1, 1, 0, 1, 0, 0, 1]
    );
    let err = flags::parse_bits("10 2").unwrap_err().to_string();
    assert!(err.contains("token 3"), "{err}");
}

#[test]
fn u32le_needs_whole_words() {
    let bytes = [1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
    assert_eq!(
        flags::parse(&bytes, FlagsFormat::U32Le, u64::MAX).unwrap(),
        vec![1, u32::MAX]
    );
    let err = flags::parse(&bytes[..7], FlagsFormat::U32Le, u64::MAX)
        .unwrap_err()
        .to_string();
    assert!(err.contains("token 2") && err.contains("7 bytes"), "{err}");
}

#[test]
fn pasted_text_is_list_or_bits() {
    assert_eq!(
        flags::parse_text("1001101001", u64::MAX).unwrap(),
        flags::ARTICLE_EXAMPLE.to_vec()
    );
    assert_eq!(
        flags::parse_text("1,0,0,1", u64::MAX).unwrap(),
        vec![1, 0, 0, 1]
    );
    assert_eq!(flags::parse_text("12", u64::MAX).unwrap(), vec![12]);
    assert_eq!(flags::parse_text("1", u64::MAX).unwrap(), vec![1]);
}

#[test]
fn url_round_trips() {
    let cases = [
        vec![],
        flags::ARTICLE_EXAMPLE.to_vec(),
        flags::random(4097, 0.3, 1),
        vec![0, 2, u32::MAX, 1],
        vec![1; 9],
    ];
    for flags in cases {
        let text = flags::encode_url(&flags);
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
            "{text}"
        );
        assert_eq!(flags::decode_url(&text, u64::MAX).unwrap(), flags, "{text}");
    }
    assert_eq!(flags::encode_url(&flags::ARTICLE_EXAMPLE), "b10.WQI");
}

#[test]
fn malformed_urls_are_errors() {
    for text in [
        "",
        "b",
        "b10",
        "bx.WQI",
        "b10.WQ",
        "b10.W!I",
        "z10.WQI",
        "w2.AAAA",
        "b99999999999999999999.A",
    ] {
        assert!(
            flags::decode_url(text, u64::MAX).is_err(),
            "{text:?} should be refused"
        );
    }
}

#[test]
fn random_matches_the_cub_anchor_generator() {
    // cub_select.cu: s = 0x9E3779B97F4A7C15 ^ n; xorshift 13/7/17; (s >> 11) / 2^53 < density.
    let n = 1000u64;
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15 ^ n;
    let expected: Vec<u32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            u32::from(((s >> 11) as f64 / (1u64 << 53) as f64) < 0.5)
        })
        .collect();
    assert_eq!(flags::random(n as usize, 0.5, n), expected);
}

#[test]
fn clustered_has_runs_and_roughly_the_density() {
    let f = flags::clustered(100_000, 0.2, 8, 3);
    assert_eq!(f.len(), 100_000);
    let visible = f.iter().filter(|&&x| x == 1).count() as f64 / 1e5;
    assert!((0.15..0.25).contains(&visible), "{visible}");
    let runs = f.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(runs < 100_000 / 4, "{runs} transitions: not clustered");
}

#[test]
fn signs_are_not_digits() {
    for text in ["+5", "1 +0", "-0", "5+"] {
        let err = flags::parse_list(text).unwrap_err().to_string();
        assert!(err.contains("is not a decimal u32"), "{text}: {err}");
    }
    assert_eq!(
        flags::parse_list("007 0000000004294967295").unwrap(),
        vec![7, u32::MAX]
    );
}

#[test]
fn messages_escape_control_characters() {
    let err = flags::parse_list("1 \x1b[31mred").unwrap_err().to_string();
    assert!(!err.contains('\x1b') && err.contains("\\u{1b}"), "{err}");
    let err = flags::parse_bits("1\u{7}").unwrap_err().to_string();
    assert!(!err.contains('\u{7}') && err.contains("\\u{7}"), "{err}");
}

#[test]
fn readers_stop_past_the_limit() {
    for (format, input) in [
        (FlagsFormat::List, &b"1 0 1 0 1"[..]),
        (FlagsFormat::Bits, &b"10101"[..]),
        (FlagsFormat::U32Le, &[1u8; 20][..]),
    ] {
        assert_eq!(flags::parse(input, format, 5).unwrap().len(), 5);
        let err = flags::parse(input, format, 4).unwrap_err();
        assert!(
            matches!(err, Error::TooMany { n: None, max: 4 }),
            "{format:?}: {err}"
        );
    }
    assert!(matches!(
        flags::parse_text("1001101001", 9),
        Err(Error::TooMany { .. })
    ));
}

#[test]
fn readers_refuse_endless_tokens_at_once() {
    // What `--input /dev/zero` gives: the first byte is already wrong.
    let mut reader = FlagReader::new(FlagsFormat::List, u64::MAX);
    assert!(reader.push(&[0u8; 4096]).is_err());
    let mut reader = FlagReader::new(FlagsFormat::List, u64::MAX);
    let err = reader.push(&[b'9'; 4096]).unwrap_err().to_string();
    assert!(err.contains("larger than 4294967295"), "{err}");
    let mut reader = FlagReader::new(FlagsFormat::List, u64::MAX);
    let err = reader.push(&[b'0'; 4096]).unwrap_err().to_string();
    assert!(err.contains("longer than any u32"), "{err}");
}

#[test]
fn readers_take_pieces_split_anywhere() {
    let text = "1, 0 ,\u{a0}2\n4294967295 ";
    let whole = flags::parse(text.as_bytes(), FlagsFormat::List, u64::MAX).unwrap();
    assert_eq!(whole, vec![1, 0, 2, u32::MAX]);
    for cut in 0..text.len() {
        let mut reader = FlagReader::new(FlagsFormat::List, u64::MAX);
        reader.push(&text.as_bytes()[..cut]).unwrap();
        reader.push(&text.as_bytes()[cut..]).unwrap();
        assert_eq!(reader.finish().unwrap(), whole, "cut at {cut}");
    }
    let words: Vec<u8> = [7u32, 8, 9].iter().flat_map(|w| w.to_le_bytes()).collect();
    for cut in 0..words.len() {
        let mut reader = FlagReader::new(FlagsFormat::U32Le, u64::MAX);
        reader.push(&words[..cut]).unwrap();
        reader.push(&words[cut..]).unwrap();
        assert_eq!(reader.finish().unwrap(), vec![7, 8, 9], "cut at {cut}");
    }
}

#[test]
fn packed_lengths_past_the_limit_are_refused_before_decoding() {
    // 2^30 words: n * 4 wraps a 32-bit usize (wasm32); it must be refused, not give [].
    assert!(matches!(
        flags::decode_url("w1073741824.", 1 << 24),
        Err(Error::TooMany { .. })
    ));
    assert!(flags::decode_url("w1073741824.", u64::MAX).is_err());
    assert!(flags::decode_url("b+5.A", u64::MAX).is_err());
}
