/** The encoding guess on the test's own thread, where the service's runs in a worker (lib/work/charset.ts). */
import { guessedEncoding, type GuessEncoding } from '../../lib/fetch/charset.ts';

export const localGuess: GuessEncoding = async (head) => guessedEncoding(head);
