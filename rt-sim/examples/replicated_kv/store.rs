//! The store's software: a primary that replicates each `SET` to its
//! backups, and a backup. Plain rt code (`rt::net`, `rt::spawn`,
//! `rt::sync`), as it would run on real machines; its state lives in
//! memory, so a crash loses it.

use crate::resp::{parse_command, Command, Reply};
use rt_io::io::{AsyncReadExt, AsyncWriteExt};
use rt_io::net::{TcpListener, TcpStream};
use rt_sim::HostResult;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

type Db = Arc<Mutex<HashMap<Vec<u8>, Vec<u8>>>>;

/// A backup: applies every `SET` it is sent and answers `GET`.
pub async fn backup() -> HostResult {
    serve(Db::default(), Vec::new()).await
}

/// The primary: applies `SET`, copies it to `backups`, answers `GET`.
pub async fn primary(backups: &'static [&'static str]) -> HostResult {
    serve(Db::default(), backups.to_vec()).await
}

async fn serve(db: Db, backups: Vec<&'static str>) -> HostResult {
    let listener = TcpListener::bind("0.0.0.0:6379").await?;
    let backups = Arc::new(backups);
    loop {
        let (stream, _) = listener.accept().await?;
        let (db, backups) = (db.clone(), backups.clone());
        rt_core::task::spawn(async move {
            let _ = session(stream, db, backups).await;
        });
    }
}

/// Answers one connection's commands until it closes.
async fn session(
    mut stream: TcpStream,
    db: Db,
    backups: Arc<Vec<&'static str>>,
) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let mut chunk = [0; 1024];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        while let Some((command, used)) = parse_command(&buf).map_err(std::io::Error::other)? {
            buf.drain(..used);
            let reply = apply(&db, &backups, command);
            let mut out = Vec::new();
            reply.write_to(&mut out);
            stream.write_all(&out).await?;
        }
    }
}

fn apply(db: &Db, backups: &Arc<Vec<&'static str>>, command: Command) -> Reply {
    let words: Vec<&[u8]> = command.iter().map(Vec::as_slice).collect();
    match words.as_slice() {
        [b"SET", key, value] => {
            db.lock().unwrap().insert(key.to_vec(), value.to_vec());
            // THE BUG: the copies go out in the background and the client
            // is answered at once. Waiting for the backups' `+OK` before
            // answering would make an acknowledged write survive a
            // partition or the primary's crash.
            for backup in backups.iter() {
                let set = encode(&[
                    "SET",
                    &String::from_utf8_lossy(key),
                    &String::from_utf8_lossy(value),
                ]);
                rt_core::task::spawn(replicate(backup, set));
            }
            Reply::Simple("OK")
        }
        [b"GET", key] => match db.lock().unwrap().get(*key) {
            Some(value) => Reply::Bulk(value.clone()),
            None => Reply::Nil,
        },
        _ => Reply::err("unknown command"),
    }
}

/// Sends one `SET` to a backup and waits for its answer.
async fn replicate(backup: &str, set: Vec<u8>) -> std::io::Result<()> {
    let mut stream = TcpStream::connect(backup).await?;
    stream.write_all(&set).await?;
    let mut ok = [0; 5];
    stream.read_exact(&mut ok).await?;
    Ok(())
}

/// A command as a RESP array of bulk strings.
pub fn encode(words: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", words.len()).into_bytes();
    for word in words {
        out.extend_from_slice(format!("${}\r\n{word}\r\n", word.len()).as_bytes());
    }
    out
}
