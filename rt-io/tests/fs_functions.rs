//! The free functions of `rt_io::fs`, `DirBuilder` and `read_dir`: each one
//! does its job and keeps the `io::ErrorKind` of its failures.

use rt_io::fs;
use rt_test::{run, run_multi_thread, ScratchDir};
use std::collections::BTreeSet;
use std::io::ErrorKind;

#[test]
fn write_then_read_and_read_to_string() {
    let dir = ScratchDir::new("write-read");
    run(async {
        let path = dir.join("f.txt");
        fs::write(&path, "hello world").await.unwrap();
        assert_eq!(fs::read(&path).await.unwrap(), b"hello world");
        assert_eq!(fs::read_to_string(&path).await.unwrap(), "hello world");
        // `write` truncates.
        fs::write(&path, b"hi").await.unwrap();
        assert_eq!(fs::read_to_string(&path).await.unwrap(), "hi");
    });
}

#[test]
fn read_errors_keep_their_kind() {
    let dir = ScratchDir::new("read-errors");
    run(async {
        let missing = dir.join("missing");
        assert_eq!(
            fs::read(&missing).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        assert_eq!(
            fs::read_to_string(&missing).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        let bad = dir.join("bad");
        fs::write(&bad, [0xff, 0xfe]).await.unwrap();
        assert_eq!(
            fs::read_to_string(&bad).await.unwrap_err().kind(),
            ErrorKind::InvalidData
        );
        assert_eq!(
            fs::metadata(&missing).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        assert_eq!(
            fs::remove_file(&missing).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
    });
}

#[test]
#[cfg_attr(
    miri,
    ignore = "fs::copy: Miri does not emulate the copy_file_range system call"
)]
fn copy_rename_and_remove_file() {
    let dir = ScratchDir::new("copy-rename");
    run(async {
        let a = dir.join("a");
        let b = dir.join("b");
        let c = dir.join("c");
        fs::write(&a, b"contents").await.unwrap();
        assert_eq!(fs::copy(&a, &b).await.unwrap(), 8);
        assert_eq!(fs::read(&b).await.unwrap(), b"contents");
        fs::rename(&b, &c).await.unwrap();
        assert!(!fs::try_exists(&b).await.unwrap());
        assert_eq!(fs::read(&c).await.unwrap(), b"contents");
        fs::remove_file(&c).await.unwrap();
        assert!(!fs::try_exists(&c).await.unwrap());
        assert!(fs::try_exists(&a).await.unwrap());
        assert_eq!(
            fs::copy(dir.join("none"), &b).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        assert_eq!(
            fs::rename(dir.join("none"), &b).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
    });
}

#[test]
fn directories_are_created_and_removed() {
    let dir = ScratchDir::new("dirs");
    run(async {
        let one = dir.join("one");
        fs::create_dir(&one).await.unwrap();
        assert!(fs::metadata(&one).await.unwrap().is_dir());
        assert_eq!(
            fs::create_dir(&one).await.unwrap_err().kind(),
            ErrorKind::AlreadyExists
        );
        assert_eq!(
            fs::create_dir(dir.join("x/y")).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        let deep = dir.join("a/b/c");
        fs::create_dir_all(&deep).await.unwrap();
        fs::create_dir_all(&deep).await.unwrap();
        assert!(fs::try_exists(&deep).await.unwrap());
        fs::write(deep.join("f"), b"x").await.unwrap();
        // Not empty: `remove_dir` refuses, `remove_dir_all` does not.
        assert!(fs::remove_dir(dir.join("a")).await.is_err());
        fs::remove_dir_all(dir.join("a")).await.unwrap();
        assert!(!fs::try_exists(dir.join("a")).await.unwrap());
        fs::remove_dir(&one).await.unwrap();
        assert_eq!(
            fs::remove_dir(&one).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        assert_eq!(
            fs::remove_dir_all(&one).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
    });
}

#[test]
fn dir_builder_plain_and_recursive() {
    let dir = ScratchDir::new("dir-builder");
    run(async {
        let nested = dir.join("p/q");
        let err = fs::DirBuilder::new().create(&nested).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        fs::DirBuilder::new()
            .recursive(true)
            .create(&nested)
            .await
            .unwrap();
        fs::DirBuilder::new()
            .recursive(true)
            .create(&nested)
            .await
            .unwrap();
        let err = fs::DirBuilder::new().create(&nested).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::AlreadyExists);
        assert!(fs::metadata(&nested).await.unwrap().is_dir());
    });
}

#[cfg(unix)]
#[test]
fn dir_builder_mode_sets_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = ScratchDir::new("dir-builder-mode");
    run(async {
        let path = dir.join("private");
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&path)
            .await
            .unwrap();
        let mode = fs::metadata(&path).await.unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    });
}

#[test]
fn metadata_and_permissions() {
    let dir = ScratchDir::new("metadata");
    run(async {
        let path = dir.join("f");
        fs::write(&path, b"12345").await.unwrap();
        let meta = fs::metadata(&path).await.unwrap();
        assert!(meta.is_file());
        assert_eq!(meta.len(), 5);
        let writable = meta.permissions();
        let mut readonly = writable.clone();
        readonly.set_readonly(true);
        fs::set_permissions(&path, readonly).await.unwrap();
        assert!(fs::metadata(&path).await.unwrap().permissions().readonly());
        fs::set_permissions(&path, writable).await.unwrap();
        assert!(!fs::metadata(&path).await.unwrap().permissions().readonly());
        assert_eq!(
            fs::set_permissions(
                dir.join("none"),
                fs::metadata(&path).await.unwrap().permissions()
            )
            .await
            .unwrap_err()
            .kind(),
            ErrorKind::NotFound
        );
    });
}

#[test]
fn links_canonicalize_and_symlink_metadata() {
    let dir = ScratchDir::new("links");
    run(async {
        let target = dir.join("target");
        fs::write(&target, b"data").await.unwrap();
        let hard = dir.join("hard");
        fs::hard_link(&target, &hard).await.unwrap();
        assert_eq!(fs::read(&hard).await.unwrap(), b"data");
        assert_eq!(
            fs::hard_link(&target, &hard).await.unwrap_err().kind(),
            ErrorKind::AlreadyExists
        );
        let canonical = fs::canonicalize(dir.join("./target")).await.unwrap();
        assert!(canonical.is_absolute());
        assert_eq!(canonical, std::fs::canonicalize(&target).unwrap());
        assert_eq!(
            fs::canonicalize(dir.join("none")).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        // `read_link` on something that is not a link fails.
        assert!(fs::read_link(&target).await.is_err());
        assert!(!fs::symlink_metadata(&target)
            .await
            .unwrap()
            .file_type()
            .is_symlink());
    });
}

#[cfg(unix)]
#[test]
fn symlinks_are_followed_or_not() {
    let dir = ScratchDir::new("symlinks");
    run(async {
        let target = dir.join("target");
        fs::write(&target, b"data").await.unwrap();
        let link = dir.join("link");
        fs::symlink(&target, &link).await.unwrap();
        assert_eq!(fs::read_link(&link).await.unwrap(), target);
        assert!(fs::symlink_metadata(&link)
            .await
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::metadata(&link).await.unwrap().is_file());
        assert_eq!(
            fs::canonicalize(&link).await.unwrap(),
            fs::canonicalize(&target).await.unwrap()
        );
        assert_eq!(
            fs::symlink(&target, &link).await.unwrap_err().kind(),
            ErrorKind::AlreadyExists
        );
        // A dangling link exists as a link but `try_exists` follows it.
        fs::remove_file(&target).await.unwrap();
        assert!(!fs::try_exists(&link).await.unwrap());
        assert!(fs::symlink_metadata(&link).await.is_ok());
    });
}

#[test]
fn read_dir_lists_every_entry_across_batches() {
    let dir = ScratchDir::new("read-dir");
    run(async {
        // More than two batches of 32.
        let mut expected = BTreeSet::new();
        for i in 0..75 {
            let name = format!("file-{i:03}");
            fs::write(dir.join(&name), name.as_bytes()).await.unwrap();
            expected.insert(name);
        }
        fs::create_dir(dir.join("sub")).await.unwrap();

        let mut seen = BTreeSet::new();
        let mut entries = fs::read_dir(dir.path()).await.unwrap();
        while let Some(entry) = entries.next_entry().await.unwrap() {
            let name = entry.file_name().into_string().unwrap();
            assert_eq!(entry.path(), dir.join(&name));
            let file_type = entry.file_type().await.unwrap();
            let meta = entry.metadata().await.unwrap();
            if name == "sub" {
                assert!(file_type.is_dir() && meta.is_dir());
            } else {
                assert!(file_type.is_file());
                assert_eq!(meta.len(), name.len() as u64);
                seen.insert(name);
            }
            #[cfg(unix)]
            assert_eq!(entry.ino(), std::os::unix::fs::MetadataExt::ino(&meta));
        }
        assert_eq!(seen, expected);
        // Exhausted listings stay exhausted.
        assert!(entries.next_entry().await.unwrap().is_none());
    });
}

/// Later hops fetch more entries than the first (32, 64, ... up to 512):
/// 600 entries take five hops, the last one asked for the largest batch,
/// and every entry comes exactly once, whole, however many batches ago it
/// was fetched.
#[test]
fn read_dir_lists_a_long_directory_in_growing_batches() {
    let dir = ScratchDir::new("read-dir-long");
    let expected: BTreeSet<String> = (0..600).map(|i| format!("entry-{i:03}")).collect();
    for name in &expected {
        std::fs::write(dir.join(name), name.as_bytes()).unwrap();
    }
    run(async {
        let mut entries = fs::read_dir(dir.path()).await.unwrap();
        let mut kept = Vec::new();
        while let Some(entry) = entries.next_entry().await.unwrap() {
            kept.push(entry);
        }
        assert!(entries.next_entry().await.unwrap().is_none());
        let mut seen = BTreeSet::new();
        for entry in &kept {
            let name = entry.file_name().into_string().unwrap();
            assert_eq!(entry.path(), dir.join(&name));
            assert!(entry.file_type().await.unwrap().is_file());
            assert!(seen.insert(name), "an entry came twice");
        }
        assert_eq!(seen, expected);
    });
}

/// Entries of one batch share their storage: each must stay whole after
/// its siblings, the later batches and the listing itself are gone.
#[test]
fn read_dir_entries_outlive_their_siblings_and_the_listing() {
    let dir = ScratchDir::new("read-dir-kept");
    run(async {
        for i in 0..40 {
            fs::write(dir.join(&format!("kept-{i:02}")), vec![0; i])
                .await
                .unwrap();
        }
        let mut entries = fs::read_dir(dir.path()).await.unwrap();
        let mut kept = Vec::new();
        while let Some(entry) = entries.next_entry().await.unwrap() {
            kept.push(entry);
        }
        drop(entries);
        // Every other entry goes first, then the rest are checked.
        let kept: Vec<_> = kept.into_iter().skip(1).step_by(2).collect();
        assert_eq!(kept.len(), 20);
        for entry in kept {
            let name = entry.file_name().into_string().unwrap();
            let len: u64 = name["kept-".len()..].parse().unwrap();
            assert_eq!(entry.metadata().await.unwrap().len(), len);
            assert!(entry.file_type().await.unwrap().is_file());
            assert_eq!(entry.path(), dir.join(&name));
        }
    });
}

#[test]
fn read_dir_of_empty_missing_and_file() {
    let dir = ScratchDir::new("read-dir-errors");
    run(async {
        let mut entries = fs::read_dir(dir.path()).await.unwrap();
        assert!(entries.next_entry().await.unwrap().is_none());
        assert_eq!(
            fs::read_dir(dir.join("none")).await.unwrap_err().kind(),
            ErrorKind::NotFound
        );
        fs::write(dir.join("f"), b"").await.unwrap();
        assert!(fs::read_dir(dir.join("f")).await.is_err());
    });
}

#[test]
fn read_dir_works_on_the_multi_thread_runtime() {
    let dir = ScratchDir::new("read-dir-multi");
    let root = dir.path().to_owned();
    let count = run_multi_thread(async move {
        for i in 0..40 {
            fs::write(root.join(i.to_string()), b"").await.unwrap();
        }
        let handle = rt_core::spawn(async move {
            let mut entries = fs::read_dir(&root).await.unwrap();
            let mut n = 0;
            while entries.next_entry().await.unwrap().is_some() {
                n += 1;
            }
            n
        });
        handle.await.unwrap()
    });
    assert_eq!(count, 40);
}
