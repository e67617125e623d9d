//! Who is asking: a player id (128 random bits) in a cookie signed with HMAC-SHA256, so a
//! browser keeps its games and stats without signing up and nobody can claim another's id.
//! Secrets (seat tokens, invitations) are random too and stored only as their SHA-256.

use crate::AppState;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::middleware::Next;
use axum::response::Response;
use doska_store::{Store, StoreError};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};

const COOKIE_NAME: &str = "doska_player";
const KEY_SETTING: &str = "cookie_key";
/// Two years: the cookie is the player's only identity.
const MAX_AGE: u32 = 2 * 365 * 24 * 3600;

/// The player making a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Hex id.
    pub id: String,
    /// Whether the cookie was made for this request (first visit or a bad cookie).
    pub fresh: bool,
}

/// The cookie signing key.
#[derive(Clone)]
pub struct Key(Vec<u8>);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    pub fn new(bytes: &[u8]) -> Key {
        Key(bytes.to_vec())
    }

    /// The key kept in the database, made on first start, so cookies outlive restarts and are
    /// shared by every instance on one database.
    pub async fn from_store(store: &dyn Store) -> Result<Key, StoreError> {
        let fresh = secret();
        let stored = store.setting_or_insert(KEY_SETTING, &fresh).await?;
        Ok(Key(stored.into_bytes()))
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length; the error case cannot happen.
        Hmac::<Sha256>::new_from_slice(&self.0)
            .unwrap_or_else(|_| <Hmac<Sha256> as Mac>::new(&Default::default()))
    }

    fn sign(&self, id: &str) -> String {
        let mut mac = self.mac();
        mac.update(id.as_bytes());
        format!("{id}.{}", hex(&mac.finalize().into_bytes()))
    }

    fn verify(&self, value: &str) -> Option<String> {
        let (id, sig) = value.split_once('.')?;
        if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let sig = unhex(sig)?;
        let mut mac = self.mac();
        mac.update(id.as_bytes());
        mac.verify_slice(&sig).ok()?;
        Some(id.to_string())
    }
}

/// 128 random bits as hex: player ids.
pub fn random_id() -> String {
    let mut b = [0u8; 16];
    rand::rng().fill_bytes(&mut b);
    hex(&b)
}

/// 256 random bits as hex: seat tokens, invitations, keys.
pub fn secret() -> String {
    let mut b = [0u8; 32];
    rand::rng().fill_bytes(&mut b);
    hex(&b)
}

/// SHA-256 of a secret, hex: what the database keeps.
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

/// Finds the player's cookie, or makes one; handlers read [`Player`] from the extensions.
pub async fn layer(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let known = req
        .headers()
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().strip_prefix(COOKIE_NAME)?.strip_prefix('='))
        .find_map(|v| state.0.key.verify(v));
    let player = match known {
        Some(id) => Player { id, fresh: false },
        None => Player { id: random_id(), fresh: true },
    };
    req.extensions_mut().insert(player.clone());
    let mut res = next.run(req).await;
    if player.fresh {
        let secure = if state.config().secure_cookies { "; Secure" } else { "" };
        let cookie = format!(
            "{COOKIE_NAME}={}; Path=/; Max-Age={MAX_AGE}; HttpOnly; SameSite=Lax{secure}",
            state.0.key.sign(&player.id)
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            res.headers_mut().append(SET_COOKIE, v);
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_ids_verify_and_forgeries_do_not() {
        let key = Key::new(b"k");
        let id = random_id();
        let signed = key.sign(&id);
        assert_eq!(key.verify(&signed), Some(id.clone()));
        assert_eq!(Key::new(b"other").verify(&signed), None);
        let other = random_id();
        let forged = format!("{other}.{}", signed.split_once('.').map(|p| p.1).unwrap_or(""));
        assert_eq!(key.verify(&forged), None);
        assert_eq!(key.verify("zz.zz"), None);
        assert_eq!(key.verify(""), None);
        assert_eq!(secret().len(), 64);
        assert_eq!(hex(&[0, 255, 16]), "00ff10");
        assert_eq!(unhex("00ff10"), Some(vec![0, 255, 16]));
    }
}
