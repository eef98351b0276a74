import { describe, expect, it } from 'vitest';
import { continueList } from '../../src/components/admin/PageEditor';

const at = (text: string) => ({ text, selectionStart: text.length, selectionEnd: text.length });

describe('the page editor continues lists on Enter', () => {
  it('starts the next bullet or number, and ends the list on an empty item', () => {
    expect(continueList(at('- หนึ่ง'))?.text).toBe('- หนึ่ง\n- ');
    expect(continueList(at('ก่อน\n2. สอง'))?.text).toBe('ก่อน\n2. สอง\n3. ');
    expect(continueList(at('- หนึ่ง\n- '))).toEqual({ text: '- หนึ่ง\n', selectionStart: 8, selectionEnd: 8 });
    expect(continueList(at('ย่อหน้าธรรมดา'))).toBeNull();
  });
});
