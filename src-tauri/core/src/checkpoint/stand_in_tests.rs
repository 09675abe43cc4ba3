//! Stand-ins: their blobs read back, their list kept, the walk's finds.

use super::*;

fn fifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string; mkfifo only makes the node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn a_stand_in_blob_says_what_it_stands_for_and_its_list_reads_back() {
    let big = StandIn {
        path: PathBuf::from("a b/big\n.bin"),
        what: NotKept::TooLarge(2 << 30),
        stamp: 1_764_430_000_123_456_789,
    };
    let pipe = StandIn {
        path: PathBuf::from("pipe"),
        what: NotKept::NotAFile("a FIFO"),
        stamp: 42,
    };
    assert_eq!(read(&big.blob()), Some(NotKept::TooLarge(2 << 30)));
    assert_eq!(read(&pipe.blob()), Some(NotKept::NotAFile("a FIFO")));
    assert!(big.blob().len() as u64 <= MAX_LEN);
    assert_eq!(read(b"an ordinary file\n"), None);
    let list = vec![big, pipe];
    assert_eq!(decode(&encode(&list)), Some(list));
    assert_eq!(decode(b""), Some(Vec::new()));
}

#[test]
fn the_walk_finds_special_and_large_files_outside_what_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("nested/.git")).unwrap();
    fifo(&root.join("src/pipe"));
    fifo(&root.join("build/pipe"));
    fifo(&root.join(".git/pipe"));
    fifo(&root.join("nested/pipe"));
    std::fs::write(root.join("src/small.txt"), "x").unwrap();
    std::fs::write(root.join("large.bin"), vec![0u8; 100]).unwrap();
    std::fs::write(root.join("ignored.bin"), vec![0u8; 100]).unwrap();
    std::os::unix::fs::symlink("large.bin", root.join("link")).unwrap();
    let ignored = [b"build/".to_vec(), b"ignored.bin".to_vec()].into();
    let found = walk(root, &ignored, 10).unwrap();
    let paths: Vec<_> = found.iter().map(|s| s.path.clone()).collect();
    assert_eq!(
        paths,
        vec![PathBuf::from("large.bin"), PathBuf::from("src/pipe")]
    );
    assert_eq!(found[0].what, NotKept::TooLarge(100));
    assert!(found.iter().all(|s| s.holds(root)));
    std::fs::write(root.join("large.bin"), vec![0u8; 101]).unwrap();
    assert!(!found[0].holds(root));
    std::fs::remove_file(root.join("src/pipe")).unwrap();
    assert!(!found[1].holds(root));
}
