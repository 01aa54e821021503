/**
 * A self-signed certificate for `sni.example` (P-256, valid until 2126), made once with:
 *   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 \
 *     -subj "/CN=sni.example" -addext "subjectAltName=DNS:sni.example"
 * Test-only: no real host trusts it.
 */
export const HOST = 'sni.example';

export const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgBVC3vYS/rNBuEAwz
Kr9zYjq2e6Hq1CxHuTYdZ08W0cGhRANCAASmwZW4iyNWVOkNGdCvWisproTQYoA7
ivPUJkW2g+ooFonroL8eH2DbbY/WMYh9LgsLcdAtxGmV2CJ+MgwryrxC
-----END PRIVATE KEY-----
`;

export const CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUKQVi7/RIt8qDrycfVVhGgGcc9HkwCgYIKoZIzj0EAwIw
FjEUMBIGA1UEAwwLc25pLmV4YW1wbGUwIBcNMjYxMTIxMTUyODI5WhgPMjEyNjEw
MjgxNTI4MjlaMBYxFDASBgNVBAMMC3NuaS5leGFtcGxlMFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAEpsGVuIsjVlTpDRnQr1orKa6E0GKAO4rz1CZFtoPqKBaJ66C/
Hh9g222P1jGIfS4LC3HQLcRpldgifjIMK8q8QqNrMGkwHQYDVR0OBBYEFPAwboEu
YmSTt35CQZDMewkRD4IjMB8GA1UdIwQYMBaAFPAwboEuYmSTt35CQZDMewkRD4Ij
MA8GA1UdEwEB/wQFMAMBAf8wFgYDVR0RBA8wDYILc25pLmV4YW1wbGUwCgYIKoZI
zj0EAwIDRwAwRAIgErwsyBrFK+uDXAC6rRAqT57/BqAvS6kCrrqp7itstAcCIA19
tkkpI2xN1A76Th19hmDMiKonxbJt3WmDwqInlOfN
-----END CERTIFICATE-----
`;
