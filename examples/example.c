/* README example: encrypt and decrypt a message with AES-256-CBC. */
#include <stdio.h>
#include <string.h>
#include <aesir.h>

int main(void)
{
    uint8_t key[32] = {0}, iv[16] = {0}; /* use random ones in real code */
    const char *msg = "attack at dawn";
    uint8_t ct[32], pt[32];
    size_t ct_len, pt_len;
    aesir_aes k;

    if (aesir_aes_init(&k, key, sizeof(key)) != AESIR_OK ||
        aesir_cbc_encrypt(&k, iv, AESIR_PAD_PKCS7, ct, sizeof(ct), &ct_len,
                          (const uint8_t *)msg, strlen(msg)) != AESIR_OK ||
        aesir_cbc_decrypt(&k, iv, AESIR_PAD_PKCS7, pt, sizeof(pt), &pt_len,
                          ct, ct_len) != AESIR_OK)
        return 1;
    printf("%zu ciphertext bytes, %.*s, engine %s\n", ct_len, (int)pt_len,
           (const char *)pt, aesir_aes_engine(&k));
    aesir_aes_clear(&k);
    return 0;
}
