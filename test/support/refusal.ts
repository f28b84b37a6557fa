// The AppError a synchronous call throws; fails the test when it throws nothing or something else.
import { AppError } from '../../lib/core/errors';

export function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}
